#!/usr/bin/python3
# tests/numerics/make_network_refs.py: reference temperatures for tests/numerics/test_network.c by the matrix exponential (scipy)
# The linear networks of the test, written as C T' = -G T + b (fixed nodes and sources in b):
#   T(t) = T_s + expm(-C^-1 G t) (T0 - T_s),  T_s = G^-1 b.
# Run: /usr/bin/python3 tests/numerics/make_network_refs.py (prints the C arrays pasted in the test).
import numpy as np
from scipy.linalg import expm


def laplacian(n, edges, grounds):
    """G from (i, j, g) edges between unknowns and (i, g, T_fixed) ties to fixed nodes."""
    G = np.zeros((n, n))
    b = np.zeros(n)
    for i, j, g in edges:
        G[i, i] += g; G[j, j] += g; G[i, j] -= g; G[j, i] -= g
    for i, g, tf in grounds:
        G[i, i] += g
        b[i] += g * tf
    return G, b


def solution(C, G, b, T0, times):
    Ts = np.linalg.solve(G, b)
    A = -G / C[:, None]
    return Ts, [Ts + expm(A * t) @ (T0 - Ts) for t in times]


def show(name, Ts, sols, times):
    print(f"/* {name}: steady state */")
    print("static const double %s_steady[] = {%s};" % (name, ", ".join("%.15e" % v for v in Ts)))
    for t, s in zip(times, sols):
        print("/* t = %g */ {%s}," % (t, ", ".join("%.15e" % v for v in s)))


# chain: n1..n5, C_k = 1 + 0.5 k, R = 2 K/W between neighbours, n1 -- 1 K/W -- fixed 300 K,
# 10 W into n5, T0 = 300 K
C = np.array([1 + 0.5 * k for k in range(1, 6)])
G, b = laplacian(5, [(k, k + 1, 0.5) for k in range(4)], [(0, 1.0, 300.0)])
b[4] += 10.0
times = [2.0, 10.0, 40.0]
Ts, sols = solution(C, G, b, np.full(5, 300.0), times)
show("chain", Ts, sols, times)

# mesh: 4 unknowns a b c d; fixed hot = 350 K, cold = 280 K; reference 0 K unused
#   G1 a b 0.8; R2 b c 0.5 (g 2); H3 c d 1.5 (constant hA); G4 a d 0.3; R5 a hot 2 (g 0.5);
#   G6 d cold 1.2; R7 b d 4 (g 0.25); I8 0 c 3 W; C: a 2, b 0.5, c 1, d 3; T0 = 300
C = np.array([2.0, 0.5, 1.0, 3.0])
G, b = laplacian(4, [(0, 1, 0.8), (1, 2, 2.0), (2, 3, 1.5), (0, 3, 0.3), (1, 3, 0.25)],
                 [(0, 0.5, 350.0), (3, 1.2, 280.0)])
b[2] += 3.0
times = [0.5, 3.0, 20.0]
Ts, sols = solution(C, G, b, np.full(4, 300.0), times)
show("mesh", Ts, sols, times)

# sheath on fixture (data/networks/sheath_fixture.net): sheath Cs = 10 mJ/K, fixture Cf = 5 kJ/K,
# contact 0.5 K/W, sheath-air 400 K/W, fixture-air 0.1 K/W, 100 W into the fixture, ambient and
# T0 = 293.15 K. Eigenvalues -200.25 /s (5 ms) and -2.0e-3 /s (500 s): expm by eigenvectors.
C = np.array([10e-3, 5e3])
G, b = laplacian(2, [(0, 1, 2.0)], [(0, 1 / 400, 293.15), (1, 10.0, 293.15)])
b[1] += 100.0
Ts = np.linalg.solve(G, b)
w, V = np.linalg.eig(-G / C[:, None])
times = [0.01, 60.0, 3600.0]
sols = [Ts + (V @ np.diag(np.exp(w * t)) @ np.linalg.inv(V)) @ (np.full(2, 293.15) - Ts)
        for t in times]
show("sheath", Ts, sols, times)
