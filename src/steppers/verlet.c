/* src/steppers/verlet.c: the Stoermer-Verlet method (velocity form, symplectic, explicit, order 2, fixed step) for q'' = a(t, q) */
#include "core/error.h"
#include "steppers/ref_driver.h"

/* For a separable second-order system q'' = a(t, q) written as y = (q, v),
 * f(t, (q, v)) = (v, a(t, q)) (sk_model_set_second_order; nq = n / 2), one
 * kick-drift-kick step of size h:
 *   v_half = v_n + h/2 a(t_n, q_n)
 *   q_new  = q_n + h v_half
 *   v_new  = v_half + h/2 a(t_n + h, q_new)
 * a(t, q) is the second half of f(t, (q, v)). One RHS evaluation per step:
 * f(t_n + h, (q_new, v_new)) = (v_new, a(t_n + h, q_new)) is assembled from
 * the evaluation at (q_new, v_half) -- exact because a does not depend on v
 * and f's first half is v -- and reused as the next step's f_n.
 * Order 2, time-reversible and symplectic: on a Hamiltonian H = |v|^2/2 +
 * U(q) (a = -grad U) the energy error stays bounded, O(h^2), over
 * exponentially long times instead of drifting. On q'' = -w^2 q it is
 * stable for h w < 2. Fixed step only (a variable step destroys the
 * symplectic property). */
static sk_status verlet_attempt(sk__ref *r, double h, double *err)
{
  (void)err;
  const int64_t nq = r->n / 2;
  const double *q = r->y, *v = r->y + nq;
  double *qn = r->ynew, *vn = r->ynew + nq;
  sk_status rc = sk__ref_f(r);
  if (rc != SK_OK) {
    return rc;
  }
  const double *a0 = r->f + nq;
  for (int64_t i = 0; i < nq; i++) {
    vn[i] = v[i] + 0.5 * h * a0[i]; /* v_half */
    qn[i] = q[i] + h * vn[i];
  }
  /* a(t + h, q_new) from f(t + h, (q_new, v_half)) */
  if ((rc = sk__ref_rhs(r, r->t + h, r->ynew, r->fnew)) != SK_OK) {
    return rc;
  }
  const double *a1 = r->fnew + nq;
  for (int64_t i = 0; i < nq; i++) {
    vn[i] += 0.5 * h * a1[i];
    r->fnew[i] = vn[i]; /* f(t + h, ynew) = (v_new, a(t + h, q_new)) */
  }
  r->fnew_valid = 1;
  r->order = 2;
  return SK_OK;
}

static const sk__ref_method verlet_method = {
    .fixed_only = 1,
    .implicit = 0,
    .nwork = 0,
    .max_growth = 1.0,
    .attempt = verlet_attempt,
    .accepted = NULL,
};

static sk_status verlet_create(sk_stepper *s)
{
  sk_model *m = sk_stepper_get_model(s);
  sk_context *ctx = sk_stepper_get_context(s);
  SK_CHECK(ctx, sk_model_get_second_order(m) > 0, SK_ERR_UNSUPPORTED,
           "stepper 'verlet' integrates separable second-order systems q'' = a(q) only: model "
           "'%s' is not marked second order (sk_model_set_second_order: y = (q, v), f = (v, "
           "a(q)))",
           sk_model_get_name(m));
  return sk__ref_create(s, &verlet_method);
}

SK__REF_STEPPER_TYPE(sk__stepper_verlet, "verlet",
                     "Stoermer-Verlet, velocity form (explicit, symplectic, order 2, fixed step; "
                     "second-order models q'' = a(q) only)",
                     2, SK_STEPPER_EXPLICIT | SK_STEPPER_SECOND_ORDER, verlet_create);
