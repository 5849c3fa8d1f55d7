# tests/cli_krylov.cmake: Krylov settings of cvode-bdf: stiffkit's defaults against CVODE's own, BoomerAMG hierarchies kept across preconditioner setups (linsol.amg_reuse_gamma_ratio)
# the sine mode at 30^2 (gamma changes little between setups): with the default ratio fewer
# hierarchies are built than preconditioner setups, with ratio 1 one per setup; against the
# semi-discrete exact mode the error stays within 100 rtol of max |y| = 0.139 (as cli_bbd_serial)
add_test(NAME cli_amg_reuse COMMAND bash -c
  "d=$(mktemp -d) && for r in default 1; do a=; [ $r = 1 ] && a='--set linsol.amg_reuse_gamma_ratio=1'; $<TARGET_FILE:stiffkit_cli> run ${SK_DATA}/heat2d.yaml --set model.n=[30] --set model.semidiscrete=true --set linsol.preconditioner=amg $a --set output.dir=$d --set output.hdf5=false > $d/$r.txt 2>&1 || exit 1; done; awk '/preconditioner setups/ { s = $NF } /AMG hierarchies built/ { h = $NF } /max [|]y - y_exact[|]/ { e = $NF } END { print FILENAME, \"setups\", s, \"hierarchies\", h, \"max error\", e; exit !(h > 0 && h < s && e != \"\" && e + 0 < 1.4e-5) }' $d/default.txt && awk '/preconditioner setups/ { s = $NF } /AMG hierarchies built/ { h = $NF } END { print FILENAME, \"setups\", s, \"hierarchies\", h; exit !(h > 0 && h == s) }' $d/1.txt; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli_amg_reuse PROPERTIES LABELS "regression;cli" TIMEOUT 120)
sk_starts_mpi(cli_amg_reuse)
sk_cli_test(amg_reuse_ratio_below_one 65 "linsol.amg_reuse_gamma_ratio" none
  run --set model.n=[10] --set linsol.amg_reuse_gamma_ratio=0.5)
# stiffkit's Krylov defaults (maxl 20, eps_lin 1e-3) against CVODE's own (5, 0.05) given explicitly,
# on the 2D heat from u0 = 1 at 100^2 (benchmarks/krylov/results/eps_lin.csv: 211 against 399
# steps): the defaults take fewer than 0.7 times the steps, with the same answer to the run's
# tolerance (the max of the state at t_end within 1e-4 relative: rtol 1e-6 with error growth)
add_test(NAME cli_krylov_defaults COMMAND bash -c
  "d=$(mktemp -d) && S=$<TARGET_FILE:stiffkit_cli> && a='run ${SK_DATA}/heat2d.yaml --set model.n=[100] --set model.ic=constant --set model.ic_value=1 --set model.exact=none --set output.hdf5=false' && $S $a --set output.dir=$d --set output.prefix=def > $d/def.txt 2>&1 && $S $a --set output.dir=$d --set output.prefix=cv --set linsol.maxl=5 --set linsol.eps_lin=0.05 > $d/cv.txt 2>&1 && s1=$(awk '/^  steps / { print $NF }' $d/def.txt) && s2=$(awk '/^  steps / { print $NF }' $d/cv.txt) && m1=$(tail -n 1 $d/def.csv | awk -F, '{ print $(NF-1) }') && m2=$(tail -n 1 $d/cv.csv | awk -F, '{ print $(NF-1) }') && echo \"steps $s1 (defaults) $s2 (5, 0.05); max u $m1 $m2\" && awk -v a=$s1 -v b=$s2 -v x=$m1 -v y=$m2 'BEGIN { r = x - y; if (r < 0) r = -r; exit !(a > 0 && a < 0.7 * b && r < 1e-4 * y) }'; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli_krylov_defaults PROPERTIES LABELS "regression;cli" TIMEOUT 120)
