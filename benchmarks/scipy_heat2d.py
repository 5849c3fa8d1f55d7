#!/usr/bin/env python3
"""benchmarks/scipy_heat2d.py: the 2D heat benchmark with scipy's solve_ivp(method="BDF") (the Python peer of stiffkit).

u_t = k (u_xx + u_yy) on the unit square, k = 1, u = 0 on the boundary,
N x N unknowns at x_i = (i+1) h, y_j = (j+1) h, h = 1/(N+1), idx = i + N*j
(x fastest). RHS per node, in this operation order:
  ydot = (k*(uE-u) - k*(u-uW))/(h*h) + (k*(uN-u) - k*(u-uS))/(h*h)
u(x,y,0) = sin(pi x) sin(pi y); exact u = exp(-2 pi^2 k t) sin(pi x) sin(pi y).
Integrated on [0, 0.1] with t_eval = 0.01, ..., 0.1 and the constant sparse
Jacobian (CSC) passed as jac. Prints one JSON object on stdout.

--ic poly starts from 16 x(1-x) y(1-y), --ic one from 1 at every interior
node; their errors come from the state written with --state-out (raw
doubles, index order) and benchmarks/scaling/semidiscrete_error.py.

Usage: scipy_heat2d.py N [--rtol R] [--atol A] [--ic sin|poly|one] [--state-out FILE]
"""
import argparse
import json
import resource
import sys
import time

import numpy as np
import scipy
import scipy.sparse as sp
from scipy.integrate import solve_ivp


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("N", type=int)
    ap.add_argument("--rtol", type=float, default=1e-6)
    ap.add_argument("--atol", type=float, default=1e-9)
    ap.add_argument("--ic", choices=["sin", "poly", "one"], default="sin")
    ap.add_argument("--state-out")
    args = ap.parse_args()
    nx = args.N
    if nx < 1:
        ap.error("N must be >= 1")
    n = nx * nx
    k = 1.0
    h = 1.0 / (nx + 1)
    hh = h * h

    # padded work array: row j+1, column i+1 holds u[i + N*j]; the frame stays 0
    pad = np.zeros((nx + 2, nx + 2))

    def rhs(t, y):
        pad[1:-1, 1:-1] = y.reshape(nx, nx)
        u = pad[1:-1, 1:-1]
        ue = pad[1:-1, 2:]
        uw = pad[1:-1, :-2]
        un = pad[2:, 1:-1]
        us = pad[:-2, 1:-1]
        f = (k * (ue - u) - k * (u - uw)) / hh + (k * (un - u) - k * (u - us)) / hh
        return f.reshape(n)

    # constant Jacobian: kron(I, Tx) + kron(Ty, I), T = k/h^2 tridiag(1, -2, 1)
    t1 = sp.diags([np.full(nx - 1, k / hh), np.full(nx, (-k - k) / hh),
                   np.full(nx - 1, k / hh)], [-1, 0, 1], format="csc")
    eye = sp.identity(nx, format="csc")
    jac = (sp.kron(eye, t1, format="csc") + sp.kron(t1, eye, format="csc")).tocsc()

    xs = (np.arange(nx) + 1) * h
    shape = np.outer(np.sin(np.pi * xs), np.sin(np.pi * xs))  # [j, i]
    if args.ic == "poly":
        y0 = np.outer(4 * xs * (1 - xs), 4 * xs * (1 - xs)).reshape(n)
    elif args.ic == "one":
        y0 = np.ones(n)
    else:
        y0 = shape.reshape(n).copy()
    t_end = 0.1
    t_eval = np.linspace(0.01, t_end, 10)

    t0 = time.perf_counter()
    sol = solve_ivp(rhs, (0.0, t_end), y0, method="BDF", t_eval=t_eval,
                    rtol=args.rtol, atol=args.atol, jac=jac)
    wall = time.perf_counter() - t0
    if sol.status != 0:
        print(f"scipy_heat2d: solve_ivp failed: {sol.message}", file=sys.stderr)
        return 1

    t = float(sol.t[-1])
    if args.state_out:
        sol.y[:, -1].astype(np.float64).tofile(args.state_out)
    exact = np.exp(-2.0 * np.pi ** 2 * k * t) * shape.reshape(n)
    err = np.abs(sol.y[:, -1] - exact) if args.ic == "sin" else None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    out = {
        "n": n, "linsol": "splu", "steps": None, "failed_steps": None,
        "rhs_evals": int(sol.nfev), "rhs_evals_dq": 0, "jac_evals": int(sol.njev),
        "lin_setups": int(sol.nlu), "newton_iters": None, "newton_fails": None,
        "lin_iters": None, "prec_setups": None, "prec_solves": None, "t": t,
        "wall_time": wall, "ic": args.ic,
        "max_err": float(err.max()) if err is not None else None,
        "rms_err": float(np.sqrt(np.mean(err ** 2))) if err is not None else None,
        "peak_rss_mib": peak,
        "scipy": scipy.__version__, "numpy": np.__version__,
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
