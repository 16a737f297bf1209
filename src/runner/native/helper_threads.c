/*
 * The board's helper threads, put in SCHED_BATCH so they no longer preempt its main thread
 * (src/ui/helper-threads.ts says why and when). Linux's fair scheduler lets a thread that wakes
 * preempt the one running on its CPU; V8's compiler and GC helpers wake while the board draws a
 * frame, and on a machine with two CPUs they took the main thread's CPU for 1 to 4 ms. A batch
 * thread never preempts on waking ("batch and idle tasks do not preempt non-idle tasks"), yet
 * keeps its fair share of the CPU, so nothing it does is starved. A process forked by a batch
 * thread would be batch too (SCHED_RESET_ON_FORK resets only real-time policies and negative
 * nice values), but the board forks only from its main thread: libuv's spawn runs on the thread
 * that calls it.
 *
 * One function: batch(tid) -> 0, or the errno of sched_setscheduler.
 */
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <node_api.h>

#include <errno.h>
#include <sched.h>

static napi_value batch(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t tid = 0;
  napi_value out;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 || napi_get_value_int32(env, argv[0], &tid) != napi_ok || tid <= 0) {
    napi_throw_type_error(env, NULL, "batch(tid): a thread id");
    return NULL;
  }
  struct sched_param param = { .sched_priority = 0 };
  int rc = sched_setscheduler(tid, SCHED_BATCH, &param) == 0 ? 0 : errno;
  napi_create_int32(env, rc, &out);
  return out;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "batch", NAPI_AUTO_LENGTH, batch, NULL, &fn);
  napi_set_named_property(env, exports, "batch", fn);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
