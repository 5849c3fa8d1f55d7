#!/usr/bin/env python3
"""tests/regression/make_linear_answers.py: answers for the CLI runs of data/linear_heat1d.yaml, from scipy.

The committed Matrix Market files (data/linear/heat1d_fe_{K,M,b}.mtx) are read with
scipy.io.mmread (a reader independent of stiffkit's) and M u' = -K u + g(t) b, u(0) = 0,
g(t) = 1 - exp(-20 t), is solved two ways:
  - in closed form from scipy.linalg.eigh(K, M) (LAPACK's generalized symmetric eigensolver):
    u = sum_k v_k a_k, a_k = beta_k [(1 - e^{-l t}) / l - (e^{-mu t} - e^{-l t}) / (l - mu)],
    beta_k = v_k^T b, mu = 20;
  - by scipy's Radau at rtol 1e-12 on u' = M^{-1} (g b - K u).
The two must agree to 1e-9 relative (checked); the closed form is written.
linear_heat1d_scipy.csv is the consistent mass matrix, linear_heat1d_lumped_scipy.csv its
row-sum lumped diagonal (model.mass_lumping = row-sum). Columns as `stiffkit run` writes them
for output.probes [24, 9] and output.n_times 5 up to t = 0.5.
Run: /usr/bin/python3 tests/regression/make_linear_answers.py (writes the .csv files here).
"""
import os

import numpy as np
from scipy.integrate import solve_ivp
from scipy.io import mmread
from scipy.linalg import eigh

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "data", "linear")
MU, T_END, N_TIMES, PROBES = 20.0, 0.5, 5, [24, 9]


def load():
    K = mmread(os.path.join(DATA, "heat1d_fe_K.mtx")).toarray()
    M = mmread(os.path.join(DATA, "heat1d_fe_M.mtx")).toarray()
    b = np.asarray(mmread(os.path.join(DATA, "heat1d_fe_b.mtx"))).ravel()
    return K, M, b


def closed_form(K, M, b, times):
    lam, V = eigh(K, M)  # V^T M V = I
    beta = V.T @ b
    out = []
    for t in times:
        a = beta * ((1 - np.exp(-lam * t)) / lam - (np.exp(-MU * t) - np.exp(-lam * t)) / (lam - MU))
        out.append(V @ a)
    return np.array(out)


def radau(K, M, b, times):
    Minv = np.linalg.inv(M)
    A, c = -Minv @ K, Minv @ b
    sol = solve_ivp(lambda t, u: A @ u + (1 - np.exp(-MU * t)) * c, (0, times[-1]), np.zeros(len(b)),
                    method="Radau", t_eval=times, rtol=1e-12, atol=1e-15, jac=A)
    return sol.y.T


def write(name, times, U):
    lines = ["t," + ",".join("u[%d]" % p for p in PROBES) + ",max_abs_y,rms_y"]
    for t, u in zip(times, U):
        vals = [t] + [u[p] for p in PROBES] + [np.max(np.abs(u)), np.sqrt(np.mean(u * u))]
        lines.append(",".join("%.10e" % v for v in vals))
    with open(os.path.join(HERE, name), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    K, M, b = load()
    times = np.array([T_END * k / N_TIMES for k in range(N_TIMES + 1)])
    for name, mass in (("linear_heat1d_scipy.csv", M), ("linear_heat1d_lumped_scipy.csv", np.diag(M.sum(axis=1)))):
        U, R = closed_form(K, mass, b, times), radau(K, mass, b, times)
        rel = np.max(np.abs(U - R)) / np.max(np.abs(U))
        print("%s: closed form vs Radau, max relative difference %.2e" % (name, rel))
        assert rel < 1e-9, rel
        write(name, times, U)


if __name__ == "__main__":
    main()
