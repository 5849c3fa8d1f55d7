# tests/cli_network.cmake: thermal networks from netlists through the CLI: the sheath example (energy balance printed, probes by node name) and every bad netlist (located message, exit code, nothing left)
set(SK_NET_BAD ${CMAKE_CURRENT_SOURCE_DIR}/bad_input/network)
set(SK_NET_DATA ${SK_DATA}/networks)

# --- good runs -------------------------------------------------------------------
sk_cli_test(network_sheath 0 "imbalance stored - (in - out) = " complete
  run ${SK_NET_DATA}/sheath_fixture.yaml)
sk_cli_test(network_board 0 "energy balance at t = 6.000000e+02" complete
  run ${SK_NET_DATA}/board.yaml)
# a thermostat: switch times located by root finding, listed after the run (the first at
# 100 ln(100/60) = 51.0825624 s, closed form in data/networks/thermostat.net)
sk_cli_test(network_thermostat 0 "t = 5.1082562" complete
  run ${SK_NET_DATA}/thermostat.yaml)
sk_cli_test(network_thermostat_ida 0 "t = 5.1082562" complete
  run ${SK_NET_DATA}/thermostat.yaml
  --set solver.method=ida-bdf)
# the example as documented, with its config given by a relative path from another directory
add_test(NAME cli_network_sheath_example COMMAND bash -c
  "d=$(mktemp -d) && cd $d && ln -s ${SK_DATA} data && $<TARGET_FILE:stiffkit_cli> run --quiet data/networks/sheath_fixture.yaml > out.txt 2>&1; rc=$?; ok=0; test $rc -eq 0 && grep -q 'T(sheath),T(fixture)' sheath_fixture.csv && ok=1; cat out.txt; rm -rf $d; test $ok -eq 1")
set_tests_properties(cli_network_sheath_example PROPERTIES LABELS "regression;cli" TIMEOUT 120)

# --- bad input: exit code, located message, no file left ----------------------------
function(sk_net_bad name code pattern file)
  sk_cli_test(network_${name} ${code} "${pattern}" none
    run --set model.type=network --set model.netlist=${SK_NET_BAD}/${file} ${ARGN})
endfunction()
sk_net_bad(unknown_element 65 "unknown_element.net:3:1: unknown element 'Q1'" unknown_element.net)
sk_net_bad(node_count 65 "node_count.net:4:1: R1: wrong number of fields (2 after the name): expected R<name> node1 node2 resistance" node_count.net)
sk_net_bad(duplicate_name 65 "duplicate_name.net:5:1: duplicate element name 'R1' (first defined at " duplicate_name.net)
sk_net_bad(undefined_param 65 "undefined_param.net:4:13: in expression '{2*Rth}': undefined parameter 'Rth'" undefined_param.net)
sk_net_bad(bad_suffix 65 "bad_suffix.net:3:6: malformed number '4.7x'" bad_suffix.net)
sk_net_bad(negative_c 65 "negative_c.net:3:6: C1: negative capacitance" negative_c.net)
sk_net_bad(negative_r 65 "negative_r.net:4:10: R1: negative resistance -10 K/W" negative_r.net)
sk_net_bad(pwl_times 65 "pwl_times.net:6:3: PWL times must increase strictly: 1 after 2" pwl_times.net)
sk_net_bad(include_cycle 65 "cycle_b.net:3:10: .include cycle: " cycle_a.net)
sk_net_bad(unknown_subckt 65 "unknown_subckt.net:3:10: X1: unknown subcircuit 'cell'" unknown_subckt.net)
sk_net_bad(pin_mismatch 65 "pin_mismatch.net:2) has 2 pins, the instance gives 3 nodes" pin_mismatch.net)
sk_net_bad(floating_massless 65 "(their temperatures are undetermined): 'm1', 'm2'" floating_massless.net)
sk_net_bad(no_conductance 65 "massless node 'm' (no capacitance) has no conductance at all" no_conductance.net)
sk_net_bad(switch 65 "switch.net:5:12: thermostat: T_low (310) must be below T_high (305)" switch.net)
sk_net_bad(two_fixed 65 "two_fixed.net:3: V2: node 'amb' already has a fixed temperature" two_fixed.net)
sk_cli_test(network_missing_netlist_key 65 "model.type = network needs model.netlist" none
  run --set model.type=network)
sk_cli_test(network_missing_file 66 "--set: model.netlist: '/nonexistent/board.net': no such file" none
  run --set model.type=network --set model.netlist=/nonexistent/board.net)
sk_cli_test(network_bad_probe 65 "output.probe_nodes: network: no node named 'nowhere'" none
  run --set model.type=network --set model.netlist=${SK_NET_DATA}/sheath_fixture.net
  --set "output.probe_nodes=sheath, nowhere")

# --- steady states of networks (a netlist given directly) ------------------------------
# expected values: the chain's hand-solved steady state in tests/regression/networks/steady_chain.net
# (T_a = 360, T_mid = 350, T_b = 320 K; mid is massless, so this is the DAE path F(y, 0) = 0)
add_test(NAME cli_network_steady_dae COMMAND bash -c
  "d=$(mktemp -d) && cd $d && $<TARGET_FILE:stiffkit_cli> steady --quiet ${CMAKE_CURRENT_SOURCE_DIR}/regression/networks/steady_chain.net > out.txt 2>&1; rc=$?; cat out.txt; awk -F, 'NR > 1 { want[\"\\\"T(a)\\\"\"] = 360; want[\"\\\"T(mid)\\\"\"] = 350; want[\"\\\"T(b)\\\"\"] = 320; d = $3 - want[$2]; if (d < 0) d = -d; if (d > 1e-9) bad = 1; n++ } END { exit bad || n != 3 }' steady.csv; ok=$?; rm -rf $d; test $rc -eq 0 -a $ok -eq 0")
set_tests_properties(cli_network_steady_dae PROPERTIES LABELS "regression;cli" TIMEOUT 120)
# a group with no conductive path to a fixed temperature has no steady state: named, exit 65
sk_cli_test(network_steady_floating 65 "floating sub-network with no conductive path to a fixed-temperature node or the reference" none
  steady ${CMAKE_CURRENT_SOURCE_DIR}/regression/networks/floating.net)
# ... while its transient is well posed
sk_cli_test(network_run_floating 0 "energy balance" complete
  run ${CMAKE_CURRENT_SOURCE_DIR}/regression/networks/floating.net)

# --- element heat flows and the event log in the result files ---------------------------
# expected values: while the heater is on the body follows T = 120 - 100 e^{-t/100}, so the
# loss through Rloss at t = 10 is T - 20 = 100 (1 - e^{-0.1}) = 9.516258196; the first event
# is the closed-form switch time 100 ln(100/60) = 51.0825624 with direction +1
add_test(NAME cli_network_flow_files COMMAND bash -c
  "d=$(mktemp -d) && cd $d && $<TARGET_FILE:stiffkit_cli> run --quiet ${SK_NET_DATA}/thermostat.yaml > out.txt 2>&1; rc=$?; awk -F, '$1 + 0 == 10 { d = $2 - 9.516258196; if (d < 0) d = -d; ok = d < 1e-7 } END { exit !ok }' thermostat.flows.csv; a=$?; awk -F, 'NR == 2 { d = $1 - 51.0825624; if (d < 0) d = -d; ok = d < 1e-6 && $3 + 0 == 1 } END { exit !ok }' thermostat.events.csv; b=$?; h5ls -r thermostat.h5 | grep -q '/flows/values'; c=$?; cat out.txt; rm -rf $d; test $rc -eq 0 -a $a -eq 0 -a $b -eq 0 -a $c -eq 0")
set_tests_properties(cli_network_flow_files PROPERTIES LABELS "regression;cli" TIMEOUT 120)
# a failed run keeps the flows and events written so far as .partial files, marked incomplete
sk_cli_test(network_flow_files_partial 10 "in component 0" partial
  run --quiet ${SK_NET_DATA}/thermostat.yaml
  --inject nan:comp=0:t=100)
# value expressions nest at most 256 levels: 250 nested parentheses around the resistance give
# R = 1 (the run ends at the closed-form temperature 20 + (T0 - 20) e^{-t/RC} = 20 here);
# 300 000 parentheses (a 600 KB line) and 1000 signs end in exit 65 naming file:line:col,
# not in a stack overflow
add_test(NAME cli_network_expression_depth COMMAND bash -c
  "d=$(mktemp -d) && cd $d && S=$<TARGET_FILE:stiffkit_cli> && mk() { /usr/bin/python3 -c \"import sys; k = int(sys.argv[1]); v = '{' + ('(' * k + '1' + ')' * k if sys.argv[2] == 'p' else '-' * k + '1') + '}'; open(sys.argv[3], 'w').write('Vamb amb 0 20\\nCbody body 0 100\\nRloss body amb ' + v + '\\n.ic body=20\\n.end\\n')\" $1 $2 $3; } && mk 250 p ok.net && $S run --set model.type=network --set model.netlist=ok.net --set solver.t_end=10 --set output.dir=. > out.txt 2>&1 && mk 300000 p deep.net && { $S run --set model.type=network --set model.netlist=deep.net --set output.dir=. > e1.txt 2>&1; test $? -eq 65; } && grep -q 'deep.net:3:.*nested deeper than 256 levels' e1.txt && mk 1000 s signs.net && { $S run --set model.type=network --set model.netlist=signs.net --set output.dir=. > e2.txt 2>&1; test $? -eq 65; } && grep -q 'signs.net:3:.*nested deeper than 256' e2.txt && test $(wc -c < e1.txt) -lt 2000; rc=$?; cat e1.txt | head -c 600; rm -rf $d; exit $rc")
set_tests_properties(cli_network_expression_depth PROPERTIES LABELS "regression;cli;bad_input" TIMEOUT 300)
