#!/usr/bin/env python3
# tests/tools/formula_checks.py: checks of formula-model runs against closed forms and against the built-in problems (the CLI tests of tests/cli_formula.cmake)
"""Usage: formula_checks.py CHECK DIR. Reads the result files a test wrote in DIR:
  linear    formula_linear_stiff.csv: y at every output time against the exact
            solution (lambda sin t - cos t + exp(-lambda t)) / (lambda^2 + 1), lambda = 1000
  linsens   formula_linear_stiff.sensitivity.csv: dy/dlambda of the same problem against the
            derivative of its exact solution in lambda
  lagsens   formula_forced_lag.sensitivity.csv (IDAS, a DAE): dx/da, dz/da, dx/dk, dz/dk of
            x' = -k x + z, 0 = z - a sin t against the derivatives of its exact solution
  rober     formula.csv/formula.txt against builtin.csv/builtin.txt: the same answers
            (relative 1e-12) and the same step, RHS and Jacobian counts
  vdpol     formula.csv against builtin.csv: the same answers to the tolerance (rtol 1e-8)
  bounce    formula_bouncing_ball.events.csv: bounce times t1 = v1/g, t_{k+1} = t_k + 2 e^k v1/g
            with v1 = sqrt(2 g h0), h0 = 10, g = 9.81, e = 0.8 (falling crossings only)
  top       top.events.csv and top.txt: the run stopped where the ball, after its first
            bounce, rises through h = 5: t1 + (w - sqrt(w^2 - 2 g 5)) / g, w = e v1
  pendulum  formula_pendulum.csv and out.txt: x^2 + y^2 = 1 and the index-1 constraint at
            every output time including t0, whose row holds the corrected lam(0); the corrected
            y'0 and lam(0) are g cos(45 deg) analytically
"""
import csv
import math
import re
import sys

G, E, H0 = 9.81, 0.8, 10.0


def rows(path):
    with open(path) as f:
        r = list(csv.reader(f))
    return r[0], [[float(x) for x in row] for row in r[1:]]


def stats(path):
    text = open(path).read()
    out = {}
    for key in ("steps", "error test failures", "RHS evaluations (total)", "Jacobian evaluations"):
        m = re.search(r"^  " + re.escape(key) + r"\s+(\d+)$", text, re.M)
        out[key] = int(m.group(1)) if m else None
    return out


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def near(a, b, rtol, atol):
    return abs(a - b) <= rtol * abs(b) + atol


def check_linear(d):
    _, data = rows(d + "/formula_linear_stiff.csv")
    lam = 1000.0
    worst = 0.0
    for r in data:
        t, y = r[0], r[1]
        exact = (lam * math.sin(t) - math.cos(t) + math.exp(-lam * t)) / (lam * lam + 1)
        worst = max(worst, abs(y - exact))
    print("linear stiff: max |y - exact| over %d times = %.3e" % (len(data), worst))
    if len(data) != 12 or worst > 1e-9:
        fail("expected 12 rows within 1e-9 of the exact solution")


def check_linear_sens(d):
    header, data = rows(d + "/formula_linear_stiff.sensitivity.csv")
    lam = 1000.0
    worst = scale = 0.0
    for r in data:
        t, s = r[0], r[1]
        num = lam * math.sin(t) - math.cos(t) + math.exp(-lam * t)
        den = lam * lam + 1
        exact = ((math.sin(t) - t * math.exp(-lam * t)) * den - 2 * lam * num) / (den * den)
        worst, scale = max(worst, abs(s - exact)), max(scale, abs(exact))
    print("linear stiff: max |dy/dlambda - exact| = %.3e (max |dy/dlambda| %.3e)" % (worst, scale))
    if header != ["t", "dy/dlambda"] or len(data) != 12 or worst > 1e-6 * scale:
        fail("expected 12 rows of dy/dlambda within 1e-6 relative of the exact derivative")


def check_lag_sens(d):
    header, data = rows(d + "/formula_forced_lag.sensitivity.csv")
    k, a = 2.0, 0.5
    worst = scale = 0.0
    for r in data:
        t = r[0]
        e = math.exp(-k * t)
        g = k * math.sin(t) - math.cos(t) + e
        den = k * k + 1
        want = [g / den, math.sin(t),
                -t * e + a * ((math.sin(t) - t * e) * den - 2 * k * g) / (den * den), 0.0]
        for got, w in zip(r[1:], want):
            worst, scale = max(worst, abs(got - w)), max(scale, abs(w))
    print("forced lag: max |sensitivity - exact| = %.3e (max |dy/dp| %.3e)" % (worst, scale))
    if header != ["t", "dx/da", "dz/da", "dx/dk", "dz/dk"] or len(data) != 12 or worst > 1e-6 * scale:
        fail("expected 12 rows of the four sensitivities within 1e-6 relative of the exact ones")


def check_same(d, rtol, same_counts):
    _, a = rows(d + "/formula.csv")
    _, b = rows(d + "/builtin.csv")
    if len(a) != len(b):
        fail("%d rows against %d" % (len(a), len(b)))
    for ra, rb in zip(a, b):
        for x, y in zip(ra, rb):
            if not near(x, y, rtol, 1e-300):
                fail("formula %r against built-in %r (rtol %g)" % (x, y, rtol))
    sa, sb = stats(d + "/formula.txt"), stats(d + "/builtin.txt")
    print("formula:", sa, "built-in:", sb)
    if same_counts and sa != sb:
        fail("the counts differ")


def bounce_times(n):
    v1 = math.sqrt(2 * G * H0)
    t = [v1 / G]
    for k in range(1, n):
        t.append(t[-1] + 2 * E**k * v1 / G)
    return t


def check_bounce(d):
    _, ev = rows(d + "/formula_bouncing_ball.events.csv")
    want = [t for t in bounce_times(8) if t < 8.0]
    got = [r[0] for r in ev]
    print("bounces:", got, "closed form:", want)
    if len(got) != len(want) or any(not near(g, w, 0, 1e-7) for g, w in zip(got, want)):
        fail("bounce times differ from the closed form by more than 1e-7")
    if any(r[1] != 0 or r[2] != -1 for r in ev):
        fail("every event is event 0, falling")


def check_top(d):
    _, ev = rows(d + "/top.events.csv")
    v1 = math.sqrt(2 * G * H0)
    w = E * v1
    t_top = v1 / G + (w - math.sqrt(w * w - 2 * G * 5.0)) / G
    text = open(d + "/top.txt").read()
    m = re.search(r"stopped by an event at t = (\S+)", text)
    print("stop:", m and m.group(1), "closed form: %.9f" % t_top, "events:", ev)
    if not m or not near(float(m.group(1)), t_top, 0, 1e-7):
        fail("the run did not stop at the rising crossing of h = 5")
    if len(ev) != 2 or ev[1][1] != 1 or ev[1][2] != 1:
        fail("expected the bounce, then event 1 rising")
    _, data = rows(d + "/top.csv")
    if not near(data[-1][0], t_top, 0, 1e-7) or not near(data[-1][1], 5.0, 0, 1e-7):
        fail("the last row is not the stop, h = 5")


def check_pendulum(d):
    _, data = rows(d + "/formula_pendulum.csv")
    worst_len = worst_c = 0.0
    if not near(data[0][5], G * math.cos(math.pi / 4), 1e-7, 1e-9):
        fail("the row at t0 holds lam = %r, not the corrected g cos(45 deg)" % data[0][5])
    for r in data:  # the row at t0 holds the consistent initial values IDA starts from
        t, x, y, u, v, lam = r[:6]
        worst_len = max(worst_len, abs(x * x + y * y - 1.0))
        worst_c = max(worst_c, abs(u * u + v * v - lam * (x * x + y * y) - G * y))
    print("pendulum: max |x^2 + y^2 - 1| = %.3e, max |index-1 constraint| = %.3e" % (worst_len, worst_c))
    if worst_len > 1e-6 or worst_c > 1e-6:
        fail("constraint residual above 1e-6")
    text = open(d + "/out.txt").read()
    m = re.search(r"corrected (.*)$", text, re.M)
    if not m:
        fail("no report of the consistent initialization")
    got = {}
    for item in m.group(1).split(","):
        name, _, value = item.strip().rpartition(" -> ")
        got[name.rsplit(" ", 1)[0]] = float(value)
    lam0 = G * math.cos(math.pi / 4)
    want = {"lam": lam0, "d/dt x": 0.0, "d/dt y": 0.0, "d/dt u": -G / 2, "d/dt v": -G / 2}
    print("corrected:", got, "analytic:", want)
    for k, w in want.items():
        if k not in got or not near(got[k], w, 1e-7, 1e-9):
            fail("%s corrected to %s, analytic %g" % (k, got.get(k), w))


CHECKS = {
    "linear": check_linear,
    "linsens": check_linear_sens,
    "lagsens": check_lag_sens,
    "rober": lambda d: check_same(d, 1e-12, True),
    "vdpol": lambda d: check_same(d, 1e-6, False),
    "bounce": check_bounce,
    "top": check_top,
    "pendulum": check_pendulum,
}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in CHECKS:
        print(__doc__)
        sys.exit(2)
    CHECKS[sys.argv[1]](sys.argv[2])
    print("ok")
