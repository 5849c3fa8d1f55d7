# tests/cli_linsol_auto.cmake: linsol.type=auto decides from the Jacobian's structure (the predicted LU fill), prints and records why
# a 3D grid fills its factors (about 4400 predicted flops per pattern entry at 16^3, far above
# the crossover of 100) and has the ADI preconditioner: spgmr with it
sk_cli_test(linsol_auto_3d_krylov 0 "linear solver spgmr, preconditioner model" complete
  run ${SK_DATA}/heat3d_robin.yaml --set model.n=[16] --set linsol.type=auto --set solver.t_end=0.01
  --set output.dir=. --set output.prefix=t3)
# a 1D grid is tridiagonal: its LU makes no fill (3 flops per column), KLU
sk_cli_test(linsol_auto_1d_klu 0 "klu: the factorization is cheap" complete
  run ${SK_DATA}/heat2d.yaml --set model.dim=1 --set model.mode=[1] --set model.n=[2000]
  --set linsol.type=auto --set solver.t_end=0.01 --set output.dir=. --set output.prefix=t1)
# a thermal network under IDA: KLU
sk_cli_test(linsol_auto_network_klu 0 "linear solver klu" complete
  run ${SK_DATA}/networks/thermostat.yaml --set linsol.type=auto --set output.dir=. --set output.prefix=tn)
# the decision and its figures go into the provenance; a named solver records none
add_test(NAME cli_linsol_auto_provenance COMMAND bash -c
  "d=$(mktemp -d) && cd $d && S=$<TARGET_FILE:stiffkit_cli> && $S run ${SK_DATA}/heat3d_robin.yaml --set model.n=[12] --set linsol.type=auto --set solver.t_end=0.01 --set output.dir=. --set output.prefix=a > /dev/null && grep -q '^ *linear_solver_choice: .*predicted LU factors' a.provenance.yaml && $S run ${SK_DATA}/heat3d_robin.yaml --set model.n=[12] --set linsol.type=klu --set solver.t_end=0.01 --set output.dir=. --set output.prefix=b > /dev/null && ! grep -q linear_solver_choice b.provenance.yaml; rc=$?; rm -rf $d; exit $rc")
set_tests_properties(cli_linsol_auto_provenance PROPERTIES LABELS "regression;cli" TIMEOUT 300)
