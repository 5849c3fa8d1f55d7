# tests/cli_krylov.cmake: Krylov settings of cvode-bdf: BoomerAMG hierarchies kept across preconditioner setups (linsol.amg_reuse_gamma_ratio)
# the sine mode at 30^2 (gamma changes little between setups): with the default ratio fewer
# hierarchies are built than preconditioner setups, with ratio 1 one per setup; against the
# semi-discrete exact mode the error stays within 100 rtol of max |y| = 0.139 (as cli_bbd_serial)
add_test(NAME cli_amg_reuse COMMAND bash -c
  "d=$(mktemp -d) && for r in default 1; do a=; [ $r = 1 ] && a='--set linsol.amg_reuse_gamma_ratio=1'; $<TARGET_FILE:stiffkit_cli> run ${SK_DATA}/heat2d.yaml --set model.n=[30] --set model.semidiscrete=true --set linsol.preconditioner=amg $a --set output.dir=$d --set output.hdf5=false > $d/$r.txt 2>&1 || exit 1; done; awk '/preconditioner setups/ { s = $NF } /AMG hierarchies built/ { h = $NF } /max [|]y - y_exact[|]/ { e = $NF } END { print FILENAME, \"setups\", s, \"hierarchies\", h, \"max error\", e; exit !(h > 0 && h < s && e != \"\" && e + 0 < 1.4e-5) }' $d/default.txt && awk '/preconditioner setups/ { s = $NF } /AMG hierarchies built/ { h = $NF } END { print FILENAME, \"setups\", s, \"hierarchies\", h; exit !(h > 0 && h == s) }' $d/1.txt; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli_amg_reuse PROPERTIES LABELS "regression;cli" TIMEOUT 120)
sk_cli_test(amg_reuse_ratio_below_one 65 "linsol.amg_reuse_gamma_ratio" none
  run --set model.n=[10] --set linsol.amg_reuse_gamma_ratio=0.5)
