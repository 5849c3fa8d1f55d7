% benchmarks/scaling/octave_heat2d.m: the 2D heat benchmark with Octave's ode15s and the constant sparse Jacobian (the Octave peer of stiffkit)
%
% u_t = u_xx + u_yy on the unit square, u = 0 on the boundary, N x N unknowns
% at x_i = i h, h = 1/(N+1), index i + N j (x fastest), 5-point Laplacian
% (the same ODE system as stiffkit's data/heat2d.yaml). Starts: sin
% (sin(pi x) sin(pi y)), poly (16 x(1-x) y(1-y)), one (1 at every node).
% Integrated on [0, 0.1] with RelTol/AbsTol as given and the Jacobian given
% as the constant sparse matrix. Prints one JSON line (steps, failed steps,
% RHS evaluations from ode15s' statistics, the integration's wall time) and
% writes the final state as N*N raw doubles to STATE_OUT.
%
% Usage: octave --no-gui --quiet benchmarks/scaling/octave_heat2d.m N IC RTOL ATOL STATE_OUT
1;
args = argv();
if numel(args) != 5
  fprintf(stderr, 'usage: octave_heat2d.m N IC RTOL ATOL STATE_OUT\n');
  exit(64);
end
N = str2double(args{1});
ic = args{2};
rtol = str2double(args{3});
atol = str2double(args{4});
state_out = args{5};
h = 1 / (N + 1);
e = ones(N, 1);
T = spdiags([e, -2 * e, e], -1:1, N, N) / h^2;
I = speye(N);
A = kron(I, T) + kron(T, I);
x = (1:N)' * h;
switch ic
  case 'sin'
    f = sin(pi * x);
  case 'poly'
    f = 4 * x .* (1 - x);
  case 'one'
    f = ones(N, 1);
  otherwise
    fprintf(stderr, 'octave_heat2d.m: unknown start %s (sin, poly, one)\n', ic);
    exit(64);
end
y0 = kron(f, f);
opts = odeset('RelTol', rtol, 'AbsTol', atol, 'Jacobian', A, 'Stats', 'on');
tic;
stats = evalc('sol = ode15s(@(t, u) A * u, [0 0.1], y0, opts);');
wall = toc;
steps = sscanf(regexp(stats, '\d+(?= successful steps)', 'match', 'once'), '%d');
failed = sscanf(regexp(stats, '\d+(?= failed attempts)', 'match', 'once'), '%d');
fevals = sscanf(regexp(stats, '\d+(?= function evaluations)', 'match', 'once'), '%d');
fid = fopen(state_out, 'w');
fwrite(fid, sol.y(:, end), 'double');
fclose(fid);
printf('{"n": %d, "ic": "%s", "t": %.17g, "steps": %d, "failed_steps": %d, "rhs_evals": %d, "wall_time": %.6f, "octave": "%s"}\n', ...
       N * N, ic, sol.x(end), steps, failed, fevals, wall, version());
