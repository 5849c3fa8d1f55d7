#!/usr/bin/python3
"""tests/tools/bench_test.py: `stiffkit bench` against independent computations.

usage: bench_test.py CASE   (STIFFKIT names the binary)
Cases:
  exact     1D heat, n = 20, semi-discrete exact solution: the errors bench reports for
            euler and rk4 step ladders give the convergence orders of theory (1 and 4), and
            an external CSV written here by an explicit Euler implemented in this file lands
            on the table with the error this file computes against the exact solution
            exp(-lambda_1 t) sin(pi x_i), lambda_1 = 4 (n+1)^2 sin^2(pi / (2 (n+1)))
            (the eigenvalue of the second-difference matrix), and equal to stiffkit's own
            euler error at the same step
  file      a reference file written here from that exact solution gives the errors the
            model's own exact solution gives (bench.reference: file against exact)
  run       the error bench reports for cvode-bdf at the final time equals max_err of
            `stiffkit run` with the same tolerances (its own exact-solution check)
  plugin    the in-house stepper of a plugin (data/plugins/inhouse_rk2.c, the explicit
            midpoint rule, SK_TEST_PLUGIN names the module) on the same heat problem: its
            step ladder gives the order of theory, 2
  computed  van der Pol (Test Set, stiff): the computed reference's estimated accuracy is
            below the smallest error of the study; a stepper that fails at a step (euler,
            unstable) is recorded as failed and the study goes on (exit 0)
"""
import json
import math
import os
import subprocess
import sys
import tempfile

STIFFKIT = os.environ["STIFFKIT"]
N = 20
HEAT = """model:
  type: diffusion
  dim: 1
  n: [%d]
  exact: mode
  semidiscrete: true
solver:
  t_end: 0.1
output:
  n_times: 5
  prefix: heat
""" % N


def bench(d, cfg, *sets):
    path = os.path.join(d, "cfg.yaml")
    with open(path, "w") as f:
        f.write(cfg)
    args = [STIFFKIT, "bench", path, "--out", os.path.join(d, "b")]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr)
    if p.returncode != 0:
        sys.exit("bench exited %d" % p.returncode)
    with open(os.path.join(d, "b.bench.json")) as f:
        return json.load(f)


def rows(study, method):
    return [r for r in study["rows"] if r["method"] == method]


def check(cond, what):
    print(("ok: " if cond else "FAILED: ") + what)
    if not cond:
        sys.exit(1)


def heat_euler(h, times):
    """Explicit Euler on u' = A u (A: second differences / dx^2, Dirichlet), u0 = sin(pi x)."""
    dx = 1.0 / (N + 1)
    u = [math.sin(math.pi * (i + 1) * dx) for i in range(N)]
    t, out = 0.0, []
    for tout in times:
        steps = int(round((tout - t) / h))
        for _ in range(steps):
            u = [u[i] + h * ((u[i - 1] if i > 0 else 0.0) - 2 * u[i] +
                             (u[i + 1] if i + 1 < N else 0.0)) / dx ** 2 for i in range(N)]
        t = tout
        out.append((tout, list(u)))
    return out


def heat_exact(t):
    dx = 1.0 / (N + 1)
    lam = 4.0 / dx ** 2 * math.sin(math.pi * dx / 2) ** 2
    return [math.exp(-lam * t) * math.sin(math.pi * (i + 1) * dx) for i in range(N)]


def case_exact(d):
    times = [0.02, 0.04, 0.06, 0.08, 0.1]
    ext = os.path.join(d, "pyeuler.csv")
    expected = {}
    with open(ext, "w") as f:
        f.write("tolerance,wall_time,t," + ",".join("u%d" % i for i in range(N)) + "\n")
        for h in (1e-3, 5e-4):
            err = 0.0
            for t, u in heat_euler(h, times):
                f.write("%.17g,0.01,%.17g," % (h, t) + ",".join("%.17g" % v for v in u) + "\n")
                err = max(err, max(abs(a - b) for a, b in zip(u, heat_exact(t))))
            expected[h] = err
    cfg = HEAT + """bench:
  methods: euler, rk4
  steps: [1e-3, 5e-4, 2.5e-4]
  repeats: 1
  external: [%s]
""" % ext
    s = bench(d, cfg)
    check(s["reference"]["kind"] == "exact", "the exact solution is the reference")
    for method, order, tol in (("euler", 1.0, 0.05), ("rk4", 4.0, 0.25)):
        rs = sorted(rows(s, method), key=lambda r: -r["param"])
        check(all(r["status"] == "ok" for r in rs) and len(rs) == 3, "%s: 3 points" % method)
        for a, b in zip(rs, rs[1:]):
            p = math.log(a["error"] / b["error"]) / math.log(a["param"] / b["param"])
            check(abs(p - order) < tol, "%s: observed order %.3f between h = %g and %g "
                  "(theory %g)" % (method, p, a["param"], b["param"], order))
    ex = rows(s, "pyeuler")
    check(len(ex) == 2, "the external CSV's two runs are on the table")
    own = {r["param"]: r["error"] for r in rows(s, "euler")}
    for r in ex:
        e = expected[r["param"]]
        check(abs(r["error"] - e) <= 1e-9 * e, "external h = %g: error %.10e, computed here "
              "%.10e" % (r["param"], r["error"], e))
        check(abs(own[r["param"]] - e) <= 1e-6 * e, "stiffkit euler h = %g: error %.10e, the "
              "independent Euler's %.10e" % (r["param"], own[r["param"]], e))
        check(r["wall_median"] == 0.01, "external wall time read")
    check(os.path.exists(os.path.join(d, "b.bench.csv")), "CSV written")
    check(os.path.exists(os.path.join(d, "b.bench.provenance.yaml")), "sidecar written")


def case_plugin(d):
    cfg = HEAT.replace("  t_end: 0.1\n", "  t_end: 0.1\n  plugin: %s\n" % os.environ[
        "SK_TEST_PLUGIN"]) + """bench:
  methods: inhouse-rk2
  steps: [1e-3, 5e-4, 2.5e-4]
  repeats: 1
"""
    s = bench(d, cfg)
    rs = sorted(rows(s, "inhouse-rk2"), key=lambda r: -r["param"])
    check(len(rs) == 3 and all(r["status"] == "ok" for r in rs), "inhouse-rk2: 3 points")
    for a, b in zip(rs, rs[1:]):
        p = math.log(a["error"] / b["error"]) / math.log(a["param"] / b["param"])
        check(abs(p - 2.0) < 0.1, "inhouse-rk2: observed order %.3f between h = %g and %g "
              "(theory 2)" % (p, a["param"], b["param"]))


def case_file(d):
    times = [0.02, 0.04, 0.06, 0.08, 0.1]
    ref = os.path.join(d, "ref.csv")
    with open(ref, "w") as f:
        f.write("t," + ",".join("u%d" % i for i in range(N)) + "\n")
        for t in times:
            f.write("%.17g," % t + ",".join("%.17g" % v for v in heat_exact(t)) + "\n")
    cfg = HEAT + """bench:
  methods: rk4
  steps: [1e-3, 5e-4]
  repeats: 1
"""
    exact = {r["param"]: r["error"] for r in rows(bench(d, cfg), "rk4")}
    s = bench(d, cfg, "bench.reference=file", "bench.reference_file=" + ref)
    check(s["reference"]["kind"] == "file", "the file is the reference")
    for r in rows(s, "rk4"):
        e = exact[r["param"]]
        # the two exact solutions agree to rounding of the O(1) states (1e-14 absolute)
        check(abs(r["error"] - e) <= 1e-6 * e + 1e-14, "rk4 h = %g: error %.10e against the file, %.10e "
              "against the exact solution" % (r["param"], r["error"], e))


def case_run(d):
    cfg = HEAT + """bench:
  methods: cvode-bdf
  rtols: [1e-5]
  atol_ratio: 1e-3
  times: final
  repeats: 1
"""
    s = bench(d, cfg)
    js = os.path.join(d, "run.json")
    subprocess.run([STIFFKIT, "run", os.path.join(d, "cfg.yaml"), "--quiet", "--set",
                    "solver.method=cvode-bdf", "--set", "solver.rtol=1e-5", "--set",
                    "solver.atol=1e-8", "--set", "output.dir=" + d, "--stats-json", js],
                   check=True)
    with open(js) as f:
        run = json.load(f)
    e = rows(s, "cvode-bdf")[0]["error"]
    check(abs(e - run["max_err"]) <= 1e-12 * run["max_err"],
          "bench error %.12e = stiffkit run's max_err %.12e" % (e, run["max_err"]))


def case_computed(d):
    cfg = """model:
  type: problem
  problem: vdpol
linsol:
  type: klu
output:
  n_times: 2
bench:
  methods: cvode-bdf, euler
  rtols: [1e-4, 1e-5, 1e-6]
  steps: [1e-3]
  repeats: 1
"""
    s = bench(d, cfg)
    ref = s["reference"]
    check(ref["kind"] == "computed" and ref["method"] == "cvode-bdf", "computed reference")
    check(ref["check_method"] == "cvode-adams" and ref["diff_check_method"] is not None,
          "checked by an independent method: %s differs by %s" % (ref["check_method"],
                                                                  ref["diff_check_method"]))
    ok = [r["error"] for r in s["rows"] if r["status"] == "ok"]
    check(len(ok) == 3, "the three cvode-bdf points succeed")
    check(ref["accuracy"] is not None and ref["accuracy"] < min(ok),
          "reference accuracy %.3e below the smallest error %.3e" % (ref["accuracy"], min(ok)))
    bad = rows(s, "euler")
    check(len(bad) == 1 and bad[0]["status"] == "failed" and "unstable" in bad[0]["message"],
          "euler h = 1e-3 recorded as failed: %s" % bad[0]["message"][:80])


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        {"exact": case_exact, "run": case_run, "plugin": case_plugin, "file": case_file,
         "computed": case_computed}[sys.argv[1]](d)
