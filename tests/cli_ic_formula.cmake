# tests/cli_ic_formula.cmake: model.ic = formula of the diffusion models: the sine-mode start written as a formula meets the exact mode's bound; refusals name the formula, the point and the key
# sin(pi x) sin(pi y) as a formula is the exact mode's start: against the semi-discrete exact mode
# exp(lambda_h t) sin(pi x) sin(pi y), BDF's global error at rtol 1e-6 stays within 100 rtol of
# max |y| = exp(-2 pi^2 0.1) = 0.139 (the bound of cli_bbd_serial), so < 1.4e-5
add_test(NAME cli_ic_formula_mode COMMAND bash -c
  "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> run ${SK_DATA}/heat2d.yaml --set model.n=[30] --set model.semidiscrete=true --set model.ic=formula --set 'model.ic_formula=sin(pi*x)*sin(pi*y)' --set output.dir=$d --set output.hdf5=false > $d/out.txt 2>&1; awk '/max [|]y - y_exact[|]/ { e = $NF } END { print \"max error\", e; exit !(e != \"\" && e + 0 < 1.4e-5) }' $d/out.txt; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli_ic_formula_mode PROPERTIES LABELS "regression;cli" TIMEOUT 120)
# the polynomial start of data/heat2d_poly.yaml runs
sk_cli_test(ic_formula_poly 0 "linear solver spgmr" complete
  run ${SK_DATA}/heat2d_poly.yaml --set model.n=[20])
sk_cli_test(ic_formula_syntax 65 "ic_formula_syntax.yaml:7:15: model.ic_formula: cannot parse the formula '16*x*(1-x*y*(1-y)'" none
  run ${SK_BAD}/ic_formula_syntax.yaml)
# log(x - 0.5) is NaN at the first node, x = y = 1/10 on 9 Dirichlet nodes per direction
sk_cli_test(ic_formula_nan 65 "--set model.ic_formula: the initial state 'log(x-0.5)' evaluates to NaN at the grid point (x, y) = (0.1, 0.1) (u[0,0])" none
  run ${SK_DATA}/heat2d_poly.yaml --set model.n=[9] "--set" "model.ic_formula=log(x-0.5)")
sk_cli_test(ic_formula_missing 65 "model.ic = formula needs model.ic_formula" none
  run --set model.ic=formula --set model.exact=none)
