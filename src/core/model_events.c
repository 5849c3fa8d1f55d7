/* src/core/model_events.c: a model's events: root functions located by the engines and the action taken at them */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/model_impl.h"

sk_status sk_model_set_events(sk_model *m, int nevents, sk_event_fn g, sk_event_action_fn action)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, nevents >= 0 && (nevents == 0 || g != NULL), SK_ERR_ARG,
           "sk_model_set_events: %d events need a root function (nevents >= 0)", nevents);
  m->nevents = nevents;
  m->events = nevents > 0 ? g : NULL;
  m->event_action = nevents > 0 ? action : NULL;
  m->event_jump = nevents > 0 ? m->event_jump : NULL;
  sk__free(m->ctx, m->event_dir);
  m->event_dir = NULL;
  return SK_OK;
}

int sk_model_get_nevents(const sk_model *m)
{
  return m ? m->nevents : 0;
}

int sk_model_has_event_action(const sk_model *m)
{
  return m && (m->event_action != NULL || m->event_jump != NULL);
}

sk_status sk_model_eval_events(sk_model *m, double t, const double *y, double *g)
{
  SK_CHECK(m->ctx, m->events != NULL, SK_ERR_STATE, "model '%s' has no events", m->name);
  return sk__model_checked(m, "event function", m->events(t, y, g, m->user_data), t, g,
                           m->nevents, 0);
}

/* The outcome of an event action or jump that returned rc: a failure names the cause the
 * callback recorded in the context during the call (a model built on another, such as the
 * engine form of a mass matrix, says there why its action failed); otherwise the record from
 * before the call (`saved`) is restored and the usual check follows. */
static sk_status event_outcome(sk_model *m, const char *what, int rc, double t, const double *y,
                               const sk_error *saved)
{
  const sk_error *now = sk_context_get_error(m->ctx);
  if (rc < 0 && now->code != SK_OK) {
    char cause[SK_ERROR_MSG_LEN];
    snprintf(cause, sizeof cause, "%s", now->message);
    return SK_ERROR(m->ctx, now->code, "%s of model '%s' failed at t=%.6e: %s", what, m->name, t,
                    cause);
  }
  sk__error_restore(m->ctx, saved);
  return sk__model_checked(m, what, rc, t, y, y ? m->n : 0, 1);
}

sk_status sk_model_eval_event_action(sk_model *m, double t, const double *y, const int *fired)
{
  SK_CHECK(m->ctx, m->events != NULL, SK_ERR_STATE, "model '%s' has no events", m->name);
  if (!m->event_action) {
    return SK_OK;
  }
  const sk_error saved = *sk_context_get_error(m->ctx);
  sk_context_clear_error(m->ctx);
  const int rc = m->event_action(t, y, fired, m->user_data);
  return event_outcome(m, "event action", rc, t, NULL, &saved);
}

sk_status sk_model_set_event_jump(sk_model *m, sk_event_jump_fn jump)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, jump == NULL || m->nevents > 0, SK_ERR_ARG,
           "sk_model_set_event_jump: model '%s' has no events (sk_model_set_events first)",
           m->name);
  m->event_jump = jump;
  return SK_OK;
}

int sk_model_has_event_jump(const sk_model *m)
{
  return m && m->event_jump != NULL;
}

sk_status sk_model_eval_event_jump(sk_model *m, double t, double *y, const int *fired, int *stop)
{
  *stop = 0;
  if (!m->event_jump) {
    return SK_OK;
  }
  const sk_error saved = *sk_context_get_error(m->ctx);
  sk_context_clear_error(m->ctx);
  const int rc = m->event_jump(t, y, fired, m->user_data);
  *stop = rc == 1;
  return event_outcome(m, "event jump", rc == 1 ? 0 : rc, t, y, &saved);
}

sk_status sk_model_set_event_directions(sk_model *m, const int *direction)
{
  if (!m) {
    return SK_ERR_ARG;
  }
  SK_CHECK(m->ctx, m->nevents > 0, SK_ERR_ARG,
           "sk_model_set_event_directions: model '%s' has no events", m->name);
  int *copy = NULL;
  if (direction) {
    for (int k = 0; k < m->nevents; k++) {
      SK_CHECK(m->ctx, direction[k] >= -1 && direction[k] <= 1, SK_ERR_ARG,
               "sk_model_set_event_directions: direction[%d] = %d, expected -1, 0 or 1", k,
               direction[k]);
    }
    copy = sk__malloc(m->ctx, (size_t)m->nevents * sizeof *copy);
    SK_CHECK(m->ctx, copy != NULL, SK_ERR_NOMEM, "cannot allocate the event directions");
    memcpy(copy, direction, (size_t)m->nevents * sizeof *copy);
  }
  sk__free(m->ctx, m->event_dir);
  m->event_dir = copy;
  return SK_OK;
}

const int *sk_model_get_event_directions(const sk_model *m)
{
  return m ? m->event_dir : NULL;
}
