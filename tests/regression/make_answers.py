#!/usr/bin/env python3
"""tests/regression/make_answers.py: answer files for the CLI regressions, from independent sources.

heat1d_semidiscrete.csv: the exact solution of the semi-discrete 1D heat equation
  (vertex-centred grid, n unknowns, h = 1/(n+1), mode m: u_i(t) = exp(lambda_h t) sin(m pi x_i),
  lambda_h = -(4/h^2) sin^2(m pi h / 2)), evaluated in closed form.
brusselator_scipy.csv: the 2D Brusselator written here from its equations with numpy and
  integrated by scipy's Radau (an implicit Runge-Kutta method, independent of CVODE's BDF)
  at rtol 1e-11.
Run: /usr/bin/python3 tests/regression/make_answers.py (writes the .csv files next to this script).
"""
import os

import numpy as np
from scipy.integrate import solve_ivp

HERE = os.path.dirname(os.path.abspath(__file__))


def row(values):
    return ",".join("%.10e" % v for v in values)


def heat1d():
    n, m, t_end, nt, probes = 40, 2, 0.02, 4, [9, 20]
    h = 1.0 / (n + 1)
    x = (np.arange(n) + 1) * h
    lam = -(4.0 / h**2) * np.sin(m * np.pi * h / 2) ** 2
    lines = ["t," + ",".join("u[%d]" % p for p in probes) + ",max_abs_y,rms_y,max_abs_err,rms_err"]
    for k in range(nt + 1):
        t = t_end * k / nt
        u = np.exp(lam * t) * np.sin(m * np.pi * x)
        lines.append(row([t] + [u[p] for p in probes] + [np.max(np.abs(u)), np.sqrt(np.mean(u * u)), 0.0, 0.0]))
    with open(os.path.join(HERE, "heat1d_semidiscrete.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")


def brusselator():
    n, L, a, b, alpha, eps, t_end, nt = 16, 1.0, 1.0, 3.4, 2e-3, 0.1, 2.0, 4
    probes = [(0, "u[0,0]"), (1, "v[0,0]"), (270, "u[7,8]"), (271, "v[7,8]")]
    h = L / (n - 1)
    x = np.arange(n) * h
    X, Y = np.meshgrid(x, x, indexing="xy")  # X[j, i] = x_i, row j = y index
    phi = np.cos(np.pi * X / L) * np.cos(np.pi * Y / L)
    u0, v0 = a + eps * phi, b / a + eps * phi

    def lap(w):  # zero-flux: mirrored neighbours
        wp = np.pad(w, 1, mode="reflect")
        return (wp[1:-1, 2:] - 2 * w + wp[1:-1, :-2] + wp[2:, 1:-1] - 2 * w + wp[:-2, 1:-1]) / h**2

    def f(t, y):
        u = y[0::2].reshape(n, n)
        v = y[1::2].reshape(n, n)
        du = a - (b + 1) * u + u * u * v + alpha * lap(u)
        dv = b * u - u * u * v + alpha * lap(v)
        out = np.empty_like(y)
        out[0::2] = du.ravel()
        out[1::2] = dv.ravel()
        return out

    y0 = np.empty(2 * n * n)
    y0[0::2] = u0.ravel()
    y0[1::2] = v0.ravel()
    times = [t_end * k / nt for k in range(nt + 1)]
    sol = solve_ivp(f, (0, t_end), y0, method="Radau", t_eval=times, rtol=1e-11, atol=1e-13)
    assert sol.success
    header = 't,' + ",".join('"%s"' % name for _, name in probes) + ",max_abs_y,rms_y"
    lines = [header]
    for k, t in enumerate(times):
        y = sol.y[:, k]
        lines.append(row([t] + [y[i] for i, _ in probes] + [np.max(np.abs(y)), np.sqrt(np.mean(y * y))]))
    with open(os.path.join(HERE, "brusselator_scipy.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    heat1d()
    brusselator()
