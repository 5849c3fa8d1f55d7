# tests/cli_stability.cmake: `stiffkit stability METHOD`: the A-/L-stability report, the boundary CSV and PNG, bad input
sk_cli_test(stability_trap 0 "A-stable: yes" none stability trap)
sk_cli_test(stability_trap_not_l 0 "L-stable: no" none stability trap)
sk_cli_test(stability_beuler_l 0 "L-stable: yes" none stability beuler)
sk_cli_test(stability_rk4_interval 0 "real-axis stability interval: [-2.785294, 0.000000]" none stability rk4)
sk_cli_test(stability_bdf3 0 "min Re z(theta) = -0.0833" none stability bdf3)
sk_cli_test(stability_unknown 65 "unknown method 'rk99'" none stability rk99)
sk_cli_test(stability_unknown_lists 65 "valid methods: euler, rk4, rk45, beuler, trap, ab2, am2pc, bdf2, bdf1, bdf3" none
  stability rk99)
sk_cli_test(stability_no_method 64 "stability needs a METHOD" none stability)
sk_cli_test(stability_bad_flag 64 "unknown option '--bogus'" none stability trap --bogus)
sk_cli_test(stability_csv_unwritable 73 "cannot create '/nonexistent/b.csv'" none
  stability trap --csv /nonexistent/b.csv)
# the CSV is complete (header + points, each point on |R| = 1) and the PNG, where matplotlib exists, is a PNG
add_test(NAME cli_stability_files COMMAND bash -c
  "set -e; d=$(mktemp -d); trap 'rm -rf $d' EXIT; cd $d; \"$STIFFKIT\" stability rk4 --quiet --csv b.csv --png b.png > out.txt 2> err.txt; \
   cat out.txt err.txt; grep -q '^rk4: A-stable: no, L-stable: no' out.txt; head -1 b.csv | grep -qx 'theta,branch,x,y'; \
   test $(wc -l < b.csv) -eq 2881; ! ls | grep -q tmp; \
   if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then head -c 8 b.png | od -An -c | grep -q 'P   N   G'; else grep -q 'no PNG written' err.txt; fi")
set_tests_properties(cli_stability_files PROPERTIES LABELS "regression;cli" TIMEOUT 300
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>")
# the PNG shades the stable region: for trap exactly the left half-plane (tools/check_stability_png.py)
add_test(NAME cli_stability_png_shaded COMMAND bash -c
  "set -e; d=$(mktemp -d); trap 'rm -rf $d' EXIT; cd $d; \"$STIFFKIT\" stability trap --png t.png > out.txt 2> err.txt; \
   cat out.txt err.txt; ! ls | grep -q tmp; \
   if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then grep -q 'stable region shaded' out.txt; \
   /usr/bin/python3 \"$CHECK\" t.png; else grep -q 'no PNG written' err.txt; fi")
set_tests_properties(cli_stability_png_shaded PROPERTIES LABELS "regression;cli" TIMEOUT 300
  ENVIRONMENT "STIFFKIT=$<TARGET_FILE:stiffkit_cli>;CHECK=${CMAKE_CURRENT_SOURCE_DIR}/tools/check_stability_png.py")
