# tests/cli_sensitivity.cmake: solver.sensitivity.*: unknown parameter names (listing the model's), a zero parameter without pbar, engines without sensitivities, pbar of the wrong length, complete runs writing the sensitivity series, and a mechanism's masses, gravity and springs
# (a ';' would split the pattern: the name and the list are checked by two tests)
sk_cli_test(sens_unknown_param 65 "--set: solver.sensitivity.parameters: model 'diffusion-1d' has no parameter 'kx'" none
  run ${SK_DATA}/heat1d_sensitivity.yaml --set solver.sensitivity.parameters=kx)
sk_cli_test(sens_unknown_param_list 65 "its parameters: k0, beta, kgrad.x, source, bc.x0.value, bc.x1.value" none
  run ${SK_DATA}/heat1d_sensitivity.yaml --set solver.sensitivity.parameters=kx)
sk_cli_test(sens_zero_no_pbar 65 "sensitivity parameter 'beta' has the value 0, which gives no scale: set solver.sensitivity.pbar" none
  run ${SK_DATA}/heat1d_sensitivity.yaml --set solver.sensitivity.parameters=beta)
sk_cli_test(sens_engine 65 "solver 'rk45' computes no sensitivities (solver.sensitivity.parameters): use one of the engines that do: cvode-bdf, cvode-adams" none
  run ${SK_DATA}/heat1d_sensitivity.yaml --set solver.method=rk45)
sk_cli_test(sens_pbar_length 65 "solver.sensitivity.pbar: 2 values for 1 parameters" none
  run ${SK_DATA}/heat1d_sensitivity.yaml --set solver.sensitivity.pbar=[1,2])
sk_cli_test(sens_network_unknown 65 "model 'network' has no parameter 'R9.R'" none
  run ${SK_DATA}/networks/board.yaml --set solver.sensitivity.parameters=R9.R)
sk_cli_test(sens_heat1d 0 "steps" complete run ${SK_DATA}/heat1d_sensitivity.yaml)
sk_cli_test(sens_heat1d_staggered 0 "steps" complete run ${SK_DATA}/heat1d_sensitivity.yaml
  --set solver.sensitivity.method=staggered --set "solver.sensitivity.parameters=k0, bc.x0.value"
  --set solver.sensitivity.pbar=[0.7,1] --set solver.rtol=1e-6 --set solver.atol=1e-8)
# the network's element values by name: the list names R, C, H and constant I elements
sk_cli_test(sens_network_list 65 "its parameters: X1.X1.Cd.C, X1.X1.Rjc.R, X1.X1.Rcb.R, X1.X1.Id.I" none
  run ${SK_DATA}/networks/board.yaml --set solver.sensitivity.parameters=R9.R)
# verify: the sensitivities against central differences of two extra solves (the check passes)
sk_cli_test(sens_verify 0 "forward sensitivities: pass" none
  verify ${SK_DATA}/heat1d_sensitivity.yaml)
# checkpoint segments restart the engine from each checkpoint, whose sensitivities it carries:
# the final du/dk0 still matches the closed form (it would be near 0 if they restarted at 0)
add_test(NAME cli_sens_checkpoint_segments
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_sens_restart.sh $<TARGET_FILE:stiffkit_cli>
          ${SK_DATA})
set_tests_properties(cli_sens_checkpoint_segments PROPERTIES LABELS "regression;cli" TIMEOUT 300)
# the same through IDAS (ida-bdf): the ODE model's start derivatives s' = f_y s + df/dp and the
# restarts from each checkpoint's sensitivities
add_test(NAME cli_sens_checkpoint_segments_ida
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_sens_restart.sh $<TARGET_FILE:stiffkit_cli>
          ${SK_DATA} --set solver.method=ida-bdf)
set_tests_properties(cli_sens_checkpoint_segments_ida PROPERTIES LABELS "regression;cli" TIMEOUT 300)
# a mechanism's parameters (data/mechanism_spring_slider.yaml, a slider on a spring): dq/dp against
# the closed form in the CSV series, the HDF5 blocks /sensitivity/<parameter> and the provenance's
# list (tests/tools/check_mechanism_sens.py), index1 through CVODES and ggl through IDAS
foreach(f index1 ggl)
  add_test(NAME cli_sens_mechanism_${f} COMMAND bash -c
    "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> run ${SK_DATA}/mechanism_spring_slider.yaml --set multibody.formulation=${f} --set output.dir=$d > $d/out.txt 2>&1 && /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_mechanism_sens.py $d; rc=$?; [ $rc = 0 ] || cat $d/out.txt; rm -rf $d; exit $rc")
  set_tests_properties(cli_sens_mechanism_${f} PROPERTIES LABELS "regression;cli" TIMEOUT 300)
endforeach()
# verify: the mechanism's sensitivities against central differences of two more simulations each
sk_cli_test(sens_mechanism_verify 0 "forward sensitivities: pass" none
  verify ${SK_DATA}/mechanism_spring_slider.yaml)
# refusals before any file exists: an unknown name (the mechanism's parameters listed), the
# reduced formulation (a repartition moves the state but not its sensitivities)
sk_cli_test(sens_mechanism_unknown 65 "its parameters: slider.mass, slider.inertia, gravity.x, gravity.y, coil.stiffness, coil.length, coil.damping" none
  run ${SK_DATA}/mechanism_spring_slider.yaml --set solver.sensitivity.parameters=coil.k)
sk_cli_test(sens_mechanism_reduced 65 "a repartition of the reduced coordinates moves the state but not its sensitivities" none
  run ${SK_DATA}/mechanism_spring_slider.yaml --set multibody.formulation=reduced)
