# tests/cli_linear.cmake: linear models from Matrix Market files through the CLI: the example against scipy answers, and bad input (message, exit code, nothing left)
set(SK_MTX ${CMAKE_CURRENT_SOURCE_DIR}/bad_input/mtx)
set(SK_LIN ${SK_DATA}/linear)
set(SK_LIN_FILES --set model.stiffness=${SK_LIN}/heat1d_fe_K.mtx
  --set model.mass=${SK_LIN}/heat1d_fe_M.mtx --set model.load=${SK_LIN}/heat1d_fe_b.mtx)

# --- data/linear_heat1d.yaml against scipy (tests/regression/make_linear_answers.py) --
# consistent M: CVODE with M folded in, GMRES + the exact M + gamma K preconditioner
# (the config names its matrices relative to its own directory, data/)
sk_regress_test(linear_heat1d ${SK_DATA}/linear_heat1d.yaml linear_heat1d_scipy.csv 1e-6 1e-9)
# row-sum lumped M: the ODE with the sparse Jacobian -D^{-1} K and KLU
sk_regress_test(linear_heat1d_lumped ${SK_DATA}/linear_heat1d.yaml linear_heat1d_lumped_scipy.csv
  1e-6 1e-9 --set model.mass_lumping=row-sum --set linsol.type=klu)
# consistent M as the model's mass matrix on ida-bdf: the residual M u' + K u - g b, iteration
# matrix c M + K, against the same scipy answers with each direct solver
foreach(ls klu umfpack band dense)
  sk_regress_test(linear_heat1d_ida_${ls} ${SK_DATA}/linear_heat1d.yaml linear_heat1d_scipy.csv
    1e-6 1e-9 --set solver.method=ida-bdf --set linsol.type=${ls})
endforeach()
# the example as documented, with its config given by a relative path from another directory
add_test(NAME cli_linear_heat1d_example COMMAND bash -c
  "d=$(mktemp -d) && cd $d && ln -s ${SK_DATA} data && $<TARGET_FILE:stiffkit_cli> run --quiet data/linear_heat1d.yaml > out.txt 2>&1; rc=$?; ok=0; test $rc -eq 0 && test -s linear_heat1d.csv && ok=1; cat out.txt; rm -rf $d; test $ok -eq 1")
set_tests_properties(cli_linear_heat1d_example PROPERTIES LABELS "regression;cli" TIMEOUT 120)

# --- bad input: exit code, located message, no file left -------------------
set(SK_LIN_K4 --set model.type=linear --set model.stiffness=${SK_MTX}/ok_K4.mtx)
sk_cli_test(linear_bad_banner 65 "bad_banner.mtx:1: banner: field 'complex' is not supported" none
  run --set model.type=linear --set model.stiffness=${SK_MTX}/bad_banner.mtx)
sk_cli_test(linear_bad_size 65 "bad_size.mtx:3: bad size line '4 4': expected 'rows columns entries'" none
  run --set model.type=linear --set model.stiffness=${SK_MTX}/bad_size.mtx)
sk_cli_test(linear_index_range 65 "index_range.mtx:5: entry 2: row index 9 is outside 1..4 (the matrix is 4 x 4)" none
  run --set model.type=linear --set model.stiffness=${SK_MTX}/index_range.mtx)
sk_cli_test(linear_too_few 65 "too_few.mtx:5: end of file after 3 of the 4 entries declared by the size line (line 2): too few entries" none
  run --set model.type=linear --set model.stiffness=${SK_MTX}/too_few.mtx)
sk_cli_test(linear_upper_triangle 65 "upper.mtx:4: entry 2: (1, 2) is above the diagonal in a symmetric file" none
  run --set model.type=linear --set model.stiffness=${SK_MTX}/upper.mtx)
sk_cli_test(linear_size_mismatch 65 "model.mass '${SK_MTX}/ok_K4.mtx' is 4 x 4 but model.stiffness '${SK_LIN}/heat1d_fe_K.mtx' is 49 x 49: the sizes must agree" none
  run --set model.type=linear --set model.stiffness=${SK_LIN}/heat1d_fe_K.mtx --set model.mass=${SK_MTX}/ok_K4.mtx)
sk_cli_test(linear_load_size 65 "model.load '${SK_LIN}/heat1d_fe_b.mtx' has 49 entries but model.stiffness '${SK_MTX}/ok_K4.mtx' is 4 x 4" none
  run ${SK_LIN_K4} --set model.load=${SK_LIN}/heat1d_fe_b.mtx)
sk_cli_test(linear_bad_formula 65 "model.load_amplitude: cannot parse the formula '1 + * t' at character 5: Unexpected operator" none
  run ${SK_LIN_FILES} --set model.type=linear --set "model.load_amplitude=1 + * t")
sk_cli_test(linear_missing_file 66 "--set: model.stiffness: '/nonexistent/K.mtx': no such file" none
  run --set model.type=linear --set model.stiffness=/nonexistent/K.mtx)
sk_cli_test(linear_no_stiffness 65 "model.type = linear needs model.stiffness" none
  run --set model.type=linear)
sk_cli_test(linear_zero_mass 65 "model.mass '${SK_MTX}/zero_mass.mtx' is singular: row 3 (1-based) is zero (an algebraic equation)" none
  run ${SK_LIN_K4} --set model.mass=${SK_MTX}/zero_mass.mtx)
sk_cli_test(linear_general_mass_klu 65 "has a non-diagonal model.mass '${SK_LIN}/heat1d_fe_M.mtx': solver 'cvode-bdf' integrates y' = M^{-1} f, whose Jacobian M^{-1} J is dense, so linsol.type=klu cannot be used" none
  run ${SK_LIN_FILES} --set model.type=linear --set linsol.type=klu)
# a singular M without a zero row (rows 1 and 2 equal): KLU finds it singular on cvode-bdf
sk_cli_test(linear_singular_mass 65 "model.mass '${SK_MTX}/singular_mass.mtx' is singular (KLU: KLU_SINGULAR): solver 'cvode-bdf' integrates y' = M^{-1} f and needs a nonsingular M" none
  run ${SK_LIN_K4} --set model.mass=${SK_MTX}/singular_mass.mtx)
sk_cli_test(linear_nan_mass 65 "nan_mass.mtx:5: entry 2: value 'nan' is NaN (values must be finite)" none
  run ${SK_LIN_K4} --set model.mass=${SK_MTX}/nan_mass.mtx)
# the same singular M on ida-bdf: row/column 3 of M is zero, so u_3 is algebraic (IDACalcIC)
sk_cli_test(linear_zero_mass_ida 0 "solver ida-bdf" complete
  run ${SK_LIN_K4} --set model.mass=${SK_MTX}/zero_mass.mtx --set solver.method=ida-bdf
  --set model.ic_value=1 --set solver.t_end=0.1)
sk_cli_test(linear_table_not_increasing 65 "table_repeat.csv:4: t = 1 does not increase (line 3 has t = 1)" none
  run ${SK_LIN_FILES} --set model.type=linear --set model.load_table=${SK_MTX}/table_repeat.csv)
