/* src/core/model_events.c: a model's events: root functions located by the engines and the action taken at them */
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
  return SK_OK;
}

int sk_model_get_nevents(const sk_model *m)
{
  return m ? m->nevents : 0;
}

int sk_model_has_event_action(const sk_model *m)
{
  return m && m->event_action != NULL;
}

sk_status sk_model_eval_events(sk_model *m, double t, const double *y, double *g)
{
  SK_CHECK(m->ctx, m->events != NULL, SK_ERR_STATE, "model '%s' has no events", m->name);
  return sk__model_checked(m, "event function", m->events(t, y, g, m->user_data), t, g,
                           m->nevents, 0);
}

sk_status sk_model_eval_event_action(sk_model *m, double t, const double *y, const int *fired)
{
  SK_CHECK(m->ctx, m->events != NULL, SK_ERR_STATE, "model '%s' has no events", m->name);
  if (!m->event_action) {
    return SK_OK;
  }
  return sk__model_checked(m, "event action", m->event_action(t, y, fired, m->user_data), t, NULL,
                           0, 0);
}
