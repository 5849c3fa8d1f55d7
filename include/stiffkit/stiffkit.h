/* stiffkit/stiffkit.h: the public API of stiffkit in one include */
#ifndef STIFFKIT_H
#define STIFFKIT_H
#include "stiffkit/sk_config.h"
#include "stiffkit/status.h"
#include "stiffkit/context.h"
#include "stiffkit/options.h"
#include "stiffkit/config.h"
#include "stiffkit/model.h"
#include "stiffkit/model_type.h"
#include "stiffkit/stats.h"
#include "stiffkit/stepper.h"
#include "stiffkit/preconditioner.h"
#include "stiffkit/linear_solver.h"
#include "stiffkit/plugin.h"
#include "stiffkit/diffusion.h"
#include "stiffkit/problems.h"
#include "stiffkit/linear.h"
#include "stiffkit/steady.h"
#include "stiffkit/bvp.h"
#include "stiffkit/multibody.h"
#include "stiffkit/network.h"
#include "stiffkit/verify.h"
#endif
