# tests/cli_constraints.cmake: solver.constraints: codes outside {-2, ..., 2} and lists of the wrong length end in exit 65 naming file:line, index and value; engines without constraints refuse them; a constrained run
sk_cli_test(constraints_code 65 "constraints_code.yaml:5: solver.constraints[1] = 3: expected 0"
  none run ${SK_BAD}/constraints_code.yaml)
sk_cli_test(constraints_length 65 "constraints_length.yaml:5: solver.constraints has 2 values"
  none run ${SK_BAD}/constraints_length.yaml)
sk_cli_test(constraints_code_set 65 "solver.constraints[0] = -5" none
  run ${SK_DATA}/rober.yaml --set solver.constraints=-5)
sk_cli_test(constraints_reference 65 "solver 'bdf2' does not honour inequality constraints" none
  run ${SK_DATA}/rober.yaml --set solver.constraints=1 --set solver.method=bdf2)
sk_cli_test(constraints_violated_y0 65 "the initial state violates its constraints: component 0"
  none run ${SK_DATA}/rober.yaml --set solver.constraints=-2)
sk_cli_test(constraints_steady_length 65 "solver.constraints has 2 values" none
  steady --set model.dim=1 --set model.n=[9] --set model.exact=none --set model.ic=constant
  --set model.source=1 --set solver.constraints=[1,1])
sk_cli_test(constraints_rober 0 "steps" complete run ${SK_DATA}/rober.yaml
  --set solver.constraints=[1,1,1])
sk_cli_test(constraints_rober_ida 0 "steps" complete run ${SK_DATA}/rober.yaml
  --set solver.method=ida-bdf --set solver.constraints=1)
