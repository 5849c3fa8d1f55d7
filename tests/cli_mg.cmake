# tests/cli_mg.cmake: linsol.preconditioner=mg (hypre structured multigrid): runs, its report line, auto's choice, refusals
if(SK_HAVE_HYPRE_STRUCT)
  # the run's summary says what the multigrid did (solver, stencil, cycles, setups and their cost)
  sk_cli_test(mg_report 0 "preconditioner mg: pfmg, 5-entry stencil, 1 V-cycle per solve:" complete
    run ${SK_DATA}/heat2d.yaml --set model.n=[40] --set linsol.preconditioner=mg
    --set output.dir=. --set output.prefix=m)
  sk_cli_test(mg_report_smg_3d 0 "preconditioner mg: smg, 7-entry stencil, 2 V-cycles per solve:" complete
    run ${SK_DATA}/heat3d_robin.yaml --set model.n=[12] --set linsol.type=spgmr
    --set linsol.preconditioner=mg --set linsol.mg_solver=smg --set linsol.mg_cycles=2
    --set output.dir=. --set output.prefix=m)
  sk_cli_test(mg_report_bruss 0 "preconditioner mg: syspfmg, 6-entry stencil" complete
    run ${SK_DATA}/brusselator.yaml --set model.n=[24] --set linsol.type=spgmr
    --set linsol.preconditioner=mg --set output.dir=. --set output.prefix=m)
  sk_starts_mpi(cli_mg_report cli_mg_report_smg_3d cli_mg_report_bruss)
  # against the exact semi-discrete mode (model.semidiscrete, no space error): BDF's global error
  # at rtol 1e-6 within 100 rtol max |y| = 100 * 1e-6 * exp(-2 pi^2 0.1) = 1.4e-5 (as cli_bbd_serial)
  add_test(NAME cli_mg_exact_2d COMMAND bash -c
    "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> run ${SK_DATA}/heat2d.yaml --set model.n=[60] --set model.semidiscrete=true --set linsol.preconditioner=mg --set output.dir=$d --set output.hdf5=false > $d/out.txt 2>&1 && grep -q 'preconditioner mg' $d/out.txt && awk '/max [|]y - y_exact[|]/ { e = $NF } END { print \"max error\", e; exit !(e != \"\" && e + 0 < 1.4e-5) }' $d/out.txt; rc=$?; rm -rf $d; exit $rc")
  set_tests_properties(cli_mg_exact_2d PROPERTIES LABELS "regression;cli" TIMEOUT 120)
  sk_starts_mpi(cli_mg_exact_2d)
  # the hand-off by its bound alone (linsol.mg_model_below, mg_model_max_lin=0): the first
  # steps, where gamma ||J||_1 = h 8/dx^2 is small, take the model's ADI, the later ones a
  # hierarchy; the report counts both kinds and the answer stays within the same bound of the
  # exact semi-discrete mode as cli_mg_exact_2d
  add_test(NAME cli_mg_handoff_exact COMMAND bash -c
    "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> run ${SK_DATA}/heat2d.yaml --set model.n=[60] --set model.semidiscrete=true --set linsol.preconditioner=mg --set linsol.mg_model_max_lin=0 --set output.dir=$d --set output.hdf5=false > $d/out.txt 2>&1 && grep 'preconditioner mg:' $d/out.txt && awk '/preconditioner mg:/ { for (i = 1; i < NF; i++) { if ($(i + 1) == \"setups,\") mg = $i; if ($(i + 1) == \"more\") adi = $i } } /max [|]y - y_exact[|]/ { e = $NF } END { print \"mg setups\", mg, \"hand-offs\", adi, \"max error\", e; exit !(mg + 0 > 0 && adi + 0 > 0 && e != \"\" && e + 0 < 1.4e-5) }' $d/out.txt; rc=$?; rm -rf $d; exit $rc")
  set_tests_properties(cli_mg_handoff_exact PROPERTIES LABELS "regression;cli" TIMEOUT 120)
  # above the bound (the defaults): on the smooth sine mode the ADI keeps at most 3 Krylov
  # iterations per Newton iteration at every gamma, so no hierarchy is built, and the answer
  # meets the same bound; from the polynomial start (all modes) it does not, and the report
  # names the gamma from which mg served
  add_test(NAME cli_mg_handoff_smooth COMMAND bash -c
    "d=$(mktemp -d) && $<TARGET_FILE:stiffkit_cli> run ${SK_DATA}/heat2d.yaml --set model.n=[60] --set model.semidiscrete=true --set linsol.preconditioner=mg --set output.dir=$d --set output.hdf5=false > $d/out.txt 2>&1 && grep 'preconditioner mg:' $d/out.txt && awk '/preconditioner mg:/ { for (i = 1; i < NF; i++) { if ($(i + 1) == \"setups,\") mg = $i; if ($(i + 1) == \"more\") adi = $i } } /max [|]y - y_exact[|]/ { e = $NF } END { print \"mg setups\", mg, \"hand-offs\", adi, \"max error\", e; exit !(mg == \"0\" && adi + 0 > 0 && e != \"\" && e + 0 < 1.4e-5) }' $d/out.txt; rc=$?; rm -rf $d; exit $rc")
  set_tests_properties(cli_mg_handoff_smooth PROPERTIES LABELS "regression;cli" TIMEOUT 120)
  sk_cli_test(mg_handoff_cap 0 "mg_model_max_lin 3, mg from gamma" complete
    run ${SK_DATA}/heat2d.yaml --set model.n=[60] --set model.ic=formula
    --set "model.ic_formula=16*x*(1-x)*y*(1-y)" --set model.exact=none
    --set linsol.preconditioner=mg --set output.dir=. --set output.prefix=m)
  # with k(u) (model.beta = 1: the ADI's coefficients depend on the state) the hand-off and
  # mg at every setup solve the same ODE with different preconditioners: their outputs agree
  # within the BDF's global error at rtol 1e-6 (1e-4 relative, 1e-6 absolute, as
  # cli_plugin_linsol_gmres_vs_spgmr's direct-versus-Krylov bound)
  add_test(NAME cli_mg_handoff_ku COMMAND bash -c
    "d=$(mktemp -d) && trap 'rm -rf $d' EXIT && for b in 25 0; do $<TARGET_FILE:stiffkit_cli> run ${SK_DATA}/heat2d.yaml --set model.n=[60] --set model.beta=1 --set model.exact=none --set model.ic=formula --set 'model.ic_formula=16*x*(1-x)*y*(1-y)' --set linsol.preconditioner=mg --set linsol.mg_model_below=$b --set output.hdf5=false --set output.dir=$d --set output.prefix=b$b > $d/b$b.txt 2>&1 || exit 1; done && grep -h 'preconditioner mg:' $d/b25.txt && ! grep -q ' 0 more by' $d/b25.txt && $<TARGET_FILE:numdiff> --rtol 1e-4 --atol 1e-6 $d/b0.csv $d/b25.csv")
  set_tests_properties(cli_mg_handoff_ku PROPERTIES LABELS "regression;cli" TIMEOUT 120)
  # 0 turns it off: every setup builds a hierarchy
  # (the leading space: " 0 more" is not a part of "10 more")
  sk_cli_test(mg_handoff_off 0 " 0 more by the model's preconditioner (linsol.mg_model_below 0," complete
    run ${SK_DATA}/heat2d.yaml --set model.n=[60] --set linsol.preconditioner=mg
    --set linsol.mg_model_below=0 --set output.dir=. --set output.prefix=m)
  sk_starts_mpi(cli_mg_handoff_exact cli_mg_handoff_smooth cli_mg_handoff_cap cli_mg_handoff_ku
    cli_mg_handoff_off)
  # auto: mg for a 2D grid from 5e4 states (224^2 = 50176), the ADI below (100^2); the
  # Brusselator (no preconditioner of its own) goes to spgmr with mg where KLU's factors fill
  sk_cli_test(mg_auto_2d 0 "linear solver spgmr, preconditioner mg" complete
    run ${SK_DATA}/heat2d.yaml --set model.n=[224] --set linsol.preconditioner=auto
    --set solver.t_end=0.001 --set output.dir=. --set output.prefix=a)
  sk_cli_test(mg_auto_2d_small 0 "linear solver spgmr, preconditioner model" complete
    run ${SK_DATA}/heat2d.yaml --set model.n=[100] --set linsol.preconditioner=auto
    --set solver.t_end=0.001 --set output.dir=. --set output.prefix=a)
  sk_cli_test(mg_auto_bruss 0 "spgmr with the structured multigrid (mg, a 2D grid of 51200 states)" complete
    run ${SK_DATA}/brusselator.yaml --set model.n=[160] --set linsol.type=auto
    --set solver.t_end=0.01 --set output.dir=. --set output.prefix=a)
  sk_starts_mpi(cli_mg_auto_2d cli_mg_auto_bruss)
  # SMG takes one species
  sk_cli_test(mg_smg_species 65 "linsol.mg_solver=smg: SMG takes one component per grid point, the model has 2" none
    run ${SK_DATA}/brusselator.yaml --set linsol.type=spgmr --set linsol.preconditioner=mg
    --set linsol.mg_solver=smg)
else()
  sk_cli_test(mg_unavailable 65 "linsol.preconditioner=mg is not available" none
    run ${SK_DATA}/heat2d.yaml --set linsol.preconditioner=mg)
endif()
# a model without a structured grid: refused, naming the preconditioners that apply to it
# (the message: "linsol.preconditioner=mg needs a model on a structured grid (the diffusion
# models, the Brusselator)", the model named, then the list checked here)
sk_cli_test(mg_no_grid 65 "model 'rober' has none, the preconditioners that apply to it: none, jacobi, amg, bbd" none
  run ${SK_DATA}/rober.yaml --set linsol.type=spgmr --set linsol.preconditioner=mg)
# bad values of the mg keys: located, the choices or the range named
sk_cli_test(mg_bad_solver 65 "linsol.mg_solver" none
  run ${SK_DATA}/heat2d.yaml --set linsol.preconditioner=mg --set linsol.mg_solver=boomer)
sk_cli_test(mg_bad_cycles 65 "linsol.mg_cycles" none
  run ${SK_DATA}/heat2d.yaml --set linsol.preconditioner=mg --set linsol.mg_cycles=0)
sk_cli_test(mg_bad_model_below 65 "linsol.mg_model_below" none
  run ${SK_DATA}/heat2d.yaml --set linsol.preconditioner=mg --set linsol.mg_model_below=-1)
sk_cli_test(mg_bad_model_max_lin 65 "linsol.mg_model_max_lin" none
  run ${SK_DATA}/heat2d.yaml --set linsol.preconditioner=mg --set linsol.mg_model_max_lin=-1)
