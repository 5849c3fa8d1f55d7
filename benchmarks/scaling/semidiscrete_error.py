#!/usr/bin/env python3
"""benchmarks/scaling/semidiscrete_error.py: the error of a final heat-equation state against the exact solution of the semi-discrete system, for separable starts.

The ODE system is the 5-point (2D) or 7-point (3D) Laplacian, k = 1, u = 0 on the
boundary of the unit square or cube, N unknowns per direction at x_i = i h,
h = 1/(N+1). A start that is a product of one-dimensional factors,
u0 = f(x) f(y) [f(z)], stays one: the discrete sine transform diagonalizes the
1D operator (eigenvalues -4/h^2 sin^2(k pi h / 2), eigenvectors sin(k pi x_i)),
so the exact state at t is g(x) g(y) [g(z)] with
g_i(t) = sum_k a_k exp(lambda_k t) sin(k pi x_i), a_k the sine coefficients
of f. This is the error of the time integration alone (no space error).

Starts: sin (f = sin(pi x)), poly (f = 4 x (1 - x): 16 x(1-x) y(1-y) in 2D,
64 x(1-x) y(1-y) z(1-z) in 3D), one (f = 1).

Usage: semidiscrete_error.py STATE N DIM IC T
STATE: raw doubles (N^DIM, x fastest) or a stiffkit .h5 result (its last
state row). Prints one JSON object: max_err, rel_l2_err, the exact state's
max, and t.
"""
import json
import sys

import numpy as np


def factor(ic, x):
    if ic == "sin":
        return np.sin(np.pi * x)
    if ic == "poly":
        return 4.0 * x * (1.0 - x)
    if ic == "one":
        return np.ones_like(x)
    raise SystemExit(f"semidiscrete_error.py: unknown start '{ic}' (sin, poly, one)")


def exact_factor(ic, n, t):
    """g(t) of the 1D factor at the N interior nodes."""
    h = 1.0 / (n + 1)
    i = np.arange(1, n + 1)
    x = i * h
    s = np.sin(np.pi * np.outer(i, i) * h)  # s[k-1, i-1] = sin(k pi x_i), symmetric
    a = (2.0 / (n + 1)) * (s @ factor(ic, x))  # DST-I coefficients
    lam = -4.0 / (h * h) * np.sin(np.pi * i * h / 2.0) ** 2
    return s @ (a * np.exp(lam * t))


def read_state(path, count):
    if path.endswith(".h5"):
        import h5py
        with h5py.File(path, "r") as f:
            y = np.asarray(f["state"][-1, :], dtype=np.float64)
    else:
        y = np.fromfile(path, dtype=np.float64)
    if y.size != count:
        raise SystemExit(f"semidiscrete_error.py: {path} holds {y.size} values, expected {count}")
    return y


def main(argv):
    if len(argv) != 6:
        print(__doc__.split("Usage:")[1].strip().splitlines()[0], file=sys.stderr)
        return 64
    path, n, dim, ic, t = argv[1], int(argv[2]), int(argv[3]), argv[4], float(argv[5])
    g = exact_factor(ic, n, t)
    y = read_state(path, n ** dim)
    # index i + N j (+ N^2 l): x fastest, so the reshaped array is [l, j, i]
    if dim == 2:
        exact = np.outer(g, g)
    elif dim == 3:
        exact = np.einsum("l,j,i->lji", g, g, g)
    else:
        raise SystemExit("semidiscrete_error.py: DIM is 2 or 3")
    diff = y.reshape(exact.shape) - exact
    out = {
        "t": t,
        "max_err": float(np.abs(diff).max()),
        "rel_l2_err": float(np.linalg.norm(diff) / np.linalg.norm(exact)),
        "exact_max": float(np.abs(exact).max()),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
