# tests/cli_mpi.cmake: `mpirun -np K stiffkit run`: distributed runs against the serial run, and the bad input of a launch
if(NOT SK_MPI OR NOT MPIEXEC_EXECUTABLE)
  return()
endif()
set(SK_MPI_DATA ${CMAKE_CURRENT_SOURCE_DIR}/data/mpi)
set(SK_MPIEXEC "${MPIEXEC_EXECUTABLE} --oversubscribe")
# Open MPI refuses root without these; one OpenMP thread per rank (the ranks share 2 cores)
set(SK_MPI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
  STIFFKIT=$<TARGET_FILE:stiffkit_cli> NUMDIFF=$<TARGET_FILE:numdiff> MPIEXEC=${SK_MPIEXEC})
if(SK_SANITIZE)
  # Open MPI's allocations at MPI_Init are suppressed by library (tests/lsan.supp), which needs the
  # slow unwinder to see through Open MPI's frame-pointer-less code
  list(APPEND SK_MPI_ENV "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:fast_unwind_on_malloc=0")
endif()

# sk_mpi_compare(<name> <ranks> <config> [--set ...]): serial and distributed outputs agree.
# The configs use solver.rtol 1e-7, atol 1e-10. CVODE's global error is a few times the local
# tolerance (measured against the exact semi-discrete mode: 2.4e-7 at |u| <= 1), so two runs that
# differ only in their linear solver agree to rtol 1e-5 (100 rtol) and atol 1e-6 (10 rtol max|u|)
# on every column, the error columns included (their difference is the difference of the runs).
function(sk_mpi_compare name ranks config)
  add_test(NAME mpi_${name}_np${ranks}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/mpi/compare_serial.sh ${ranks} 1e-5 1e-6
      ${SK_MPI_DATA}/${config} ${ARGN})
  set_tests_properties(mpi_${name}_np${ranks} PROPERTIES LABELS "mpi;regression" TIMEOUT 300
    ENVIRONMENT "${SK_MPI_ENV}" PROCESSORS ${ranks})
endfunction()
foreach(np 2 4)
  sk_mpi_compare(heat2d_amg ${np} heat2d.yaml --set linsol.preconditioner=amg)
  sk_mpi_compare(heat2d_bbd ${np} heat2d.yaml --set linsol.preconditioner=bbd)
  sk_mpi_compare(heat3d_amg ${np} heat3d_mode.yaml --set linsol.preconditioner=amg)
  sk_mpi_compare(brusselator_bbd ${np} brusselator.yaml --set linsol.preconditioner=bbd)
endforeach()
sk_mpi_compare(heat2d_none 2 heat2d.yaml --set linsol.preconditioner=none)
sk_mpi_compare(heat2d_strips 4 heat2d.yaml --set parallel.decomposition=[4,1])
sk_mpi_compare(heat3d_bbd 2 heat3d_mode.yaml --set linsol.preconditioner=bbd)
# the structured multigrid on the blocks (PFMG; SysPFMG for the Brusselator's two species)
sk_mpi_compare(heat2d_mg 2 heat2d.yaml --set linsol.preconditioner=mg)
sk_mpi_compare(brusselator_auto 2 brusselator.yaml)
sk_mpi_compare(heat2d_mg 4 heat2d.yaml --set linsol.preconditioner=mg)
sk_mpi_compare(heat3d_mg 2 heat3d_mode.yaml --set linsol.preconditioner=mg)
sk_mpi_compare(brusselator_mg 2 brusselator.yaml --set linsol.preconditioner=mg)
# Robin, Neumann and Dirichlet sides with the manufactured solution's time-dependent data
sk_mpi_compare(heat3d_robin_amg 2 heat3d_robin.yaml --set linsol.preconditioner=amg)
sk_mpi_compare(heat3d_robin_bbd 2 heat3d_robin.yaml --set linsol.preconditioner=bbd)
sk_mpi_compare(heat3d_robin_mg 4 heat3d_robin.yaml --set linsol.preconditioner=mg)
sk_mpi_compare(heat2d_neumann_mg 2 heat2d.yaml --set linsol.preconditioner=mg
  --set model.bc.y1.type=neumann --set model.bc.y1.value=-0.5)

# sk_mpi_expect(<name> <ranks> <code> <message> <leftover> args...): a launch that must fail the
# same way on every rank (mpirun passes the ranks' exit code on), leaving what expect_cli.sh says
function(sk_mpi_expect name ranks code message leftover)
  add_test(NAME mpi_${name} COMMAND bash ${SK_EXPECT} ${code} "${message}" ${leftover} -- ${ARGN})
  set_tests_properties(mpi_${name} PROPERTIES LABELS "mpi;bad_input" TIMEOUT 120
    ENVIRONMENT "${SK_MPI_ENV};SK_LAUNCH=${SK_MPIEXEC} -n ${ranks}" PROCESSORS ${ranks})
endfunction()
set(H2 ${SK_MPI_DATA}/heat2d.yaml)
sk_mpi_expect(decomposition_not_dividing 2 65 "does not divide" none
  run ${H2} --set parallel.decomposition=[2,1] --set model.n=[47,48])
sk_mpi_expect(decomposition_wrong_count 4 65 "parallel.decomposition" none
  run ${H2} --set parallel.decomposition=[3,1])
sk_mpi_expect(more_ranks_than_blocks 4 65 "more ranks than grid blocks" none run ${H2} --set model.n=[1,3])
sk_mpi_expect(jacobi_refused 2 65 "linsol.preconditioner = jacobi: distributed runs take auto, none, model, amg, mg, bbd"
  none run ${H2} --set linsol.preconditioner=jacobi)
sk_mpi_expect(method_refused 2 65 "cvode-bdf" none run ${H2} --set solver.method=rk45)
sk_mpi_expect(restart_refused 2 65 "distributed runs write no checkpoints" none
  run ${H2} --restart x.ckpt)
sk_mpi_expect(checkpoint_refused 2 65 "checkpoint.every" none run ${H2} --set checkpoint.every=0.1)
sk_mpi_expect(output_dir_missing 2 73 "cannot create output file" none
  run ${H2} --set output.dir=no/such/dir)
# NaN in the last rank's block: every rank stops with the same message (naming the component and
# the rank that held it) and exit 10, the rows before are kept as partial files, nobody hangs
sk_mpi_expect(nan_in_one_block 2 10 "component 2300" partial
  run ${H2} --set parallel.decomposition=[1,2] --inject nan:comp=2300:t=0.05)
sk_mpi_expect(nan_in_one_block_4 4 10 "component 2300" partial
  run ${H2} --inject nan:comp=2300:t=0.05)
# the blow-up check after a step runs on every rank's block with the scale of the whole y0 and is
# agreed: every rank stops (exit 10) with the rank's message that names the global component; the
# Brusselator's v reaches 3.678 at t = 0.75 (at v[0,28] and, by symmetry, v[28,0]), above
# 1.05 max|y0| = 3.675 (the serial run stops there too)
set(BR ${SK_MPI_DATA}/brusselator.yaml)
sk_mpi_expect(blowup_agreed 2 10 "component 1793 (v[0,28]) = 3.678e+00 exceeds solver.max_growth"
  partial run ${BR} --set solver.max_growth=1.05 --set parallel.decomposition=[2,1])
# four blocks, two of which blow up: the lowest rank that saw it speaks, once
sk_mpi_expect(blowup_agreed_4 4 10 "error: rank 1: cvode-bdf: the state blew up" partial
  run ${BR} --set solver.max_growth=1.05 --set parallel.decomposition=[2,2])
# keys that name every component of the state are refused before any rank starts (a rank's
# check of its own block would stop it alone)
sk_mpi_expect(constraints_refused 2 65 "solver.constraints: not supported by distributed runs"
  none run ${SK_MPI_DATA}/heat3d_mode.yaml --set solver.constraints=[1])
# an iterative linear solver type from a plugin works on one process's vectors: refused
sk_mpi_expect(iterative_type_refused 2 65 "linsol.type = gmres: distributed runs use spgmr" none
  run ${H2} --set solver.plugin=$<TARGET_FILE:gmres_solver> --set linsol.type=gmres)
sk_mpi_expect(detect_pattern_refused 2 65 "solver.detect_pattern = on: not supported" none
  run ${H2} --set solver.detect_pattern=on)
add_test(NAME mpi_options_mismatch COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/mpi/options_mismatch.sh)
set_tests_properties(mpi_options_mismatch PROPERTIES LABELS "mpi;bad_input" TIMEOUT 180
  ENVIRONMENT "${SK_MPI_ENV}" PROCESSORS 2)
