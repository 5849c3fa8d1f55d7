#!/usr/bin/env python3
"""data/linear/make_heat1d.py: the 1D linear finite-element heat problem as an FE code exports it (Matrix Market).

rho c u_t = (kappa u_x)_x + q on (0, 1), u(0) = u(1) = 0, kappa = rho c = q = 1, discretized
with linear elements on a uniform mesh of 50 elements (n = 49 interior nodes, h = 1/50):
  K = (1/h) tridiag(-1, 2, -1)       (stiffness, symmetric: lower triangle stored)
  M = (h/6) tridiag(1, 4, 1)         (consistent mass, symmetric: lower triangle stored)
  b_i = int q phi_i = h              (load vector, array format)
so that M u' = -K u + g(t) b. Writes heat1d_fe_K.mtx, heat1d_fe_M.mtx and heat1d_fe_b.mtx
next to this script. Run: /usr/bin/python3 data/linear/make_heat1d.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
N_ELEMENTS = 50


def assemble(nel):
    """Dense K, M and b of the interior nodes, assembled element by element."""
    n = nel - 1
    h = 1.0 / nel
    K = [[0.0] * n for _ in range(n)]
    M = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    ke = [[1.0 / h, -1.0 / h], [-1.0 / h, 1.0 / h]]
    me = [[h / 3.0, h / 6.0], [h / 6.0, h / 3.0]]
    for e in range(nel):
        dofs = [e - 1, e]  # interior node i is global node i + 1
        for a in range(2):
            if not 0 <= dofs[a] < n:
                continue
            b[dofs[a]] += 0.5 * h
            for c in range(2):
                if 0 <= dofs[c] < n:
                    K[dofs[a]][dofs[c]] += ke[a][c]
                    M[dofs[a]][dofs[c]] += me[a][c]
    return K, M, b


def write_symmetric(path, A, what):
    n = len(A)
    entries = [(i, j, A[i][j]) for j in range(n) for i in range(j, n) if A[i][j] != 0.0]
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real symmetric\n")
        f.write("%% %s of 1D linear FE heat conduction, %d elements (make_heat1d.py)\n"
                % (what, N_ELEMENTS))
        f.write("%d %d %d\n" % (n, n, len(entries)))
        for i, j, v in entries:
            f.write("%d %d %.17g\n" % (i + 1, j + 1, v))


def write_vector(path, v, what):
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix array real general\n")
        f.write("%% %s of 1D linear FE heat conduction, %d elements (make_heat1d.py)\n"
                % (what, N_ELEMENTS))
        f.write("%d 1\n" % len(v))
        for x in v:
            f.write("%.17g\n" % x)


def main():
    K, M, b = assemble(N_ELEMENTS)
    write_symmetric(os.path.join(HERE, "heat1d_fe_K.mtx"), K, "stiffness matrix K")
    write_symmetric(os.path.join(HERE, "heat1d_fe_M.mtx"), M, "consistent mass matrix M")
    write_vector(os.path.join(HERE, "heat1d_fe_b.mtx"), b, "load vector b (unit heat source)")


if __name__ == "__main__":
    main()
