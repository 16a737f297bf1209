/*
 * The echo relay: a thread of the runner that carries a direct client's keys to the program and
 * the program's output to the client's terminal without waiting for the event loop, as tmux's
 * server does in C (docs/architecture.md, "The echo relay"). JavaScript stays the owner of every
 * decision: it says, with flags, what the thread may do now, and takes everything the thread
 * read (all of the output, the keys it did not type) in order, to do what it always does with
 * them (the ring, the model, the other clients, the detach key). The thread only ever does the
 * four things below, each only while its flag is set:
 *
 *   READ_PTY   read the program's output (node-pty's own reads are stopped meanwhile);
 *   WRITE_TTY  write what it just read to the client's terminal, at once, while everything read
 *              before was written too and the bytes are valid UTF-8 so far;
 *   READ_TTY   read the client's keys;
 *   WRITE_PTY  type a read of keys into the program when all of it is plain (ASCII, none of the
 *              bytes JavaScript named: the ones a detach key starts with).
 *
 * A thread that cannot do its part clears the flag itself and hands the bytes over: a short or
 * refused write of the terminal (JavaScript writes the rest, after the queue), keys it may not
 * type (it stops reading keys until JavaScript has looked at them). So the order of every byte is
 * the one the event loop would have made. Its PTY fd is a dup of node-pty's, which node-pty closes
 * before the runner hears of the exit; the terminal's fds are the runner's own, which it closes
 * only after relay_close has joined the thread (src/runner/direct/direct-terminal.ts), so the user's
 * terminal is held by no more fds than before.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

enum { READ_PTY = 1, WRITE_TTY = 2, READ_TTY = 4, WRITE_PTY = 8 };

/* One read of output: node-pty's socket reads 64 KiB at most too. */
#define OUTPUT_READ_BYTES (64 * 1024)
/* One read of keys: what a key or a paste's piece is; the runner's JavaScript reader takes the same. */
#define KEY_READ_BYTES (16 * 1024)
/* Output read and not yet taken past this: the PTY is left unread until JavaScript takes it (the
   program then blocks on its own terminal, as when the event loop is busy). */
#define MAX_PENDING_BYTES (4 * 1024 * 1024)
/* Keys the thread typed are told to JavaScript with the next output it reads (their echo, as a
   rule) or this long after, whichever comes first. Told at once, they woke the event loop while
   the echo was on its way: with the thread, the program and that wake on 2 CPUs, the program
   waited for one of them (echo p50 0.84 to 0.98 times tmux's in six runs, 0.70 to 0.83 with the
   keys told with the echo; bench/echo.mjs). JavaScript only stamps the client's last key with
   them (src/runner/control/message-table.ts, keysTypedByRelay), which can come this much later. */
#define TYPED_NOTICE_MS 20
/* The thread needs little stack: poll, read, write, memcpy. */
#define THREAD_STACK_BYTES (256 * 1024)

typedef struct {
  char *data;
  size_t len, cap;
} bytes_t;

typedef struct {
  int pty, tty_in, tty_out, wake;
  pthread_t thread;
  int running;
  pthread_mutex_t mu;
  /* Everything below is under mu. */
  int flags;
  int stopping;
  bytes_t out;          /* output read and not taken */
  size_t out_written;   /* how much of it (a prefix) is on the terminal already */
  bytes_t held;         /* keys read and not typed */
  size_t typed;         /* keys typed since the last take */
  int pty_end, tty_in_end, tty_out_error; /* 0, -1 for end of file, or an errno; told once */
  int notified;         /* a wake is on its way to JavaScript */
  int typed_untold;     /* keys typed and not told (no wake since): told by typed_due at the latest */
  int64_t typed_due;    /* when, on CLOCK_MONOTONIC in ms */
  int utf8_need;        /* continuation bytes the output still owes its last character */
  unsigned char utf8_lo, utf8_hi; /* the range of the next continuation byte */
  unsigned char stop[256];
  napi_threadsafe_function wake_js;
  int closed;
} relay_t;

static int grow(bytes_t *b, const char *src, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n) cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) return 0;
    b->data = p;
    b->cap = cap;
  }
  memcpy(b->data + b->len, src, n);
  b->len += n;
  return 1;
}

/* Follows the output's UTF-8 across reads; 0 when these bytes hold a sequence that is not valid
   (then the JavaScript side writes them, as text, the way it always has). */
static int utf8_feed(relay_t *r, const unsigned char *s, size_t n) {
  int ok = 1;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = s[i];
    if (r->utf8_need > 0) {
      if (c >= r->utf8_lo && c <= r->utf8_hi) {
        r->utf8_need--;
        r->utf8_lo = 0x80;
        r->utf8_hi = 0xbf;
        continue;
      }
      ok = 0;
      r->utf8_need = 0; /* and c is looked at afresh, as a decoder resynchronises */
    }
    if (c < 0x80) continue;
    r->utf8_lo = 0x80;
    r->utf8_hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) r->utf8_need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      r->utf8_need = 2;
      if (c == 0xe0) r->utf8_lo = 0xa0;
      if (c == 0xed) r->utf8_hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      r->utf8_need = 3;
      if (c == 0xf0) r->utf8_lo = 0x90;
      if (c == 0xf4) r->utf8_hi = 0x8f;
    } else ok = 0;
  }
  return ok;
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Under mu. A wake tells JavaScript everything, the keys typed too. */
static void notify(relay_t *r) {
  r->typed_untold = 0;
  if (r->notified) return;
  r->notified = 1;
  napi_call_threadsafe_function(r->wake_js, NULL, napi_tsfn_nonblocking);
}

static void wake_thread(relay_t *r) {
  uint64_t one = 1;
  ssize_t ignored = write(r->wake, &one, sizeof one);
  (void)ignored;
}

static void output_readable(relay_t *r, char *buf) {
  ssize_t n = read(r->pty, buf, OUTPUT_READ_BYTES);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
  int err = errno;
  pthread_mutex_lock(&r->mu);
  if (n <= 0) {
    r->pty_end = n == 0 ? -1 : err;
    r->flags &= ~(READ_PTY | WRITE_PTY);
  } else {
    int valid = utf8_feed(r, (const unsigned char *)buf, (size_t)n);
    int write_now = (r->flags & WRITE_TTY) && valid && r->out_written == r->out.len;
    if (!grow(&r->out, buf, (size_t)n)) {
      r->pty_end = ENOMEM;
      r->flags &= ~READ_PTY;
    } else if (write_now) {
      ssize_t w = write(r->tty_out, buf, (size_t)n);
      if (w < 0) {
        if (errno != EAGAIN && errno != EINTR) r->tty_out_error = errno;
        w = 0;
      }
      r->out_written += (size_t)w;
      if (w < n) r->flags &= ~WRITE_TTY;
    } else {
      r->flags &= ~WRITE_TTY;
    }
  }
  notify(r);
  pthread_mutex_unlock(&r->mu);
}

static int plain(relay_t *r, const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] >= 0x80 || r->stop[s[i]]) return 0;
  return 1;
}

static void keys_readable(relay_t *r, char *buf) {
  ssize_t n = read(r->tty_in, buf, KEY_READ_BYTES);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
  int err = errno;
  pthread_mutex_lock(&r->mu);
  if (n <= 0) {
    r->tty_in_end = n == 0 ? -1 : err;
    r->flags &= ~READ_TTY;
  } else {
    size_t done = 0;
    if ((r->flags & WRITE_PTY) && plain(r, (const unsigned char *)buf, (size_t)n)) {
      ssize_t w = write(r->pty, buf, (size_t)n);
      done = w > 0 ? (size_t)w : 0; /* a full PTY, or an error: JavaScript types the rest and hears of it */
      r->typed += done;
      if (done < (size_t)n) r->flags &= ~WRITE_PTY;
    }
    if (done == (size_t)n) { /* all typed: told with the echo, or at typed_due */
      if (!r->typed_untold) r->typed_due = now_ms() + TYPED_NOTICE_MS;
      r->typed_untold = 1;
      pthread_mutex_unlock(&r->mu);
      return;
    }
    if (!grow(&r->held, buf + done, (size_t)n - done)) r->tty_in_end = ENOMEM;
    r->flags &= ~READ_TTY; /* until JavaScript has read these: a detach key stops the reading */
  }
  notify(r);
  pthread_mutex_unlock(&r->mu);
}

static void *run(void *arg) {
  relay_t *r = arg;
  char *out_buf = malloc(OUTPUT_READ_BYTES), *key_buf = malloc(KEY_READ_BYTES);
  if (!out_buf || !key_buf) {
    pthread_mutex_lock(&r->mu);
    r->pty_end = r->tty_in_end = ENOMEM;
    r->flags = 0;
    notify(r);
    pthread_mutex_unlock(&r->mu);
  }
  while (out_buf && key_buf) {
    struct pollfd p[3];
    int n = 0, at_pty = -1, at_tty = -1;
    pthread_mutex_lock(&r->mu);
    int stopping = r->stopping, flags = r->flags, room = r->out.len < MAX_PENDING_BYTES;
    int timeout = -1;
    if (r->typed_untold) {
      int64_t left = r->typed_due - now_ms();
      if (left <= 0) notify(r);
      else timeout = (int)left;
    }
    pthread_mutex_unlock(&r->mu);
    if (stopping) break;
    p[n++] = (struct pollfd){.fd = r->wake, .events = POLLIN};
    if ((flags & READ_PTY) && room) {
      at_pty = n;
      p[n++] = (struct pollfd){.fd = r->pty, .events = POLLIN};
    }
    if (flags & READ_TTY) {
      at_tty = n;
      p[n++] = (struct pollfd){.fd = r->tty_in, .events = POLLIN};
    }
    if (poll(p, (nfds_t)n, timeout) <= 0) continue; /* EINTR, or the keys' notice is due (above) */
    if (p[0].revents) {
      uint64_t v;
      ssize_t ignored = read(r->wake, &v, sizeof v);
      (void)ignored;
    }
    if (at_pty >= 0 && p[at_pty].revents) output_readable(r, out_buf);
    if (at_tty >= 0 && p[at_tty].revents) keys_readable(r, key_buf);
  }
  free(out_buf);
  free(key_buf);
  return NULL;
}

/* ---- JavaScript's side ---- */

#define CHECK(call)                                                      \
  do {                                                                   \
    if ((call) != napi_ok) {                                             \
      napi_throw_error(env, NULL, "echo relay: " #call " failed");       \
      return NULL;                                                       \
    }                                                                    \
  } while (0)

static relay_t *relay_of(napi_env env, napi_value v) {
  relay_t *r = NULL;
  if (napi_get_value_external(env, v, (void **)&r) != napi_ok || !r) napi_throw_type_error(env, NULL, "echo relay: not a relay");
  return r;
}

static void stop_thread(relay_t *r) {
  if (!r->running) return;
  pthread_mutex_lock(&r->mu);
  r->stopping = 1;
  pthread_mutex_unlock(&r->mu);
  wake_thread(r);
  pthread_join(r->thread, NULL);
  r->running = 0;
}

/* The dup and the eventfd are ours; the terminal's fds are the runner's. */
static void close_fds(relay_t *r) {
  int *fds[] = {&r->pty, &r->wake};
  for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
    if (*fds[i] >= 0) {
      close(*fds[i]);
      *fds[i] = -1;
    }
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  relay_t *r = data;
  stop_thread(r);
  if (!r->closed && r->wake_js) napi_release_threadsafe_function(r->wake_js, napi_tsfn_abort);
  close_fds(r);
  pthread_mutex_destroy(&r->mu);
  free(r->out.data);
  free(r->held.data);
  free(r);
}

/* open(ptyFd, ttyInFd, ttyOutFd, stopBytes: Buffer, onWake: () => void): relay (all flags off). */
static napi_value relay_open(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 5) {
    napi_throw_type_error(env, NULL, "echo relay: open(ptyFd, ttyInFd, ttyOutFd, stopBytes, onWake)");
    return NULL;
  }
  int32_t fds[3];
  for (int i = 0; i < 3; i++) CHECK(napi_get_value_int32(env, argv[i], &fds[i]));
  void *stop_data = NULL;
  size_t stop_len = 0;
  CHECK(napi_get_buffer_info(env, argv[3], &stop_data, &stop_len));
  relay_t *r = calloc(1, sizeof *r);
  if (!r) {
    napi_throw_error(env, "ENOMEM", "echo relay: out of memory");
    return NULL;
  }
  r->pty = r->tty_in = r->tty_out = r->wake = -1;
  pthread_mutex_init(&r->mu, NULL);
  for (size_t i = 0; i < stop_len; i++) r->stop[((unsigned char *)stop_data)[i]] = 1;
  r->pty = dup(fds[0]);
  r->tty_in = fds[1];
  r->tty_out = fds[2];
  r->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  napi_value name;
  napi_create_string_utf8(env, "echo-relay", NAPI_AUTO_LENGTH, &name);
  int ok = r->pty >= 0 && r->tty_in >= 0 && r->tty_out >= 0 && r->wake >= 0 &&
           napi_create_threadsafe_function(env, argv[4], NULL, name, 0, 1, NULL, NULL, NULL, NULL, &r->wake_js) == napi_ok;
  if (ok) napi_unref_threadsafe_function(env, r->wake_js); /* the relay never keeps the runner alive */
  pthread_attr_t attr;
  if (ok) {
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, THREAD_STACK_BYTES);
    ok = pthread_create(&r->thread, &attr, run, r) == 0;
    pthread_attr_destroy(&attr);
  }
  if (!ok) {
    int err = errno;
    if (r->wake_js) napi_release_threadsafe_function(r->wake_js, napi_tsfn_abort);
    close_fds(r);
    pthread_mutex_destroy(&r->mu);
    free(r);
    napi_throw_error(env, NULL, err ? strerror(err) : "echo relay: cannot start");
    return NULL;
  }
  r->running = 1;
  napi_value out;
  CHECK(napi_create_external(env, r, finalize, NULL, &out));
  return out;
}

/* set(relay, flags): the flags the thread has now. WRITE_TTY is refused while output it did not
   write waits to be taken (its bytes would come first), READ_TTY while keys it handed over do. */
static napi_value relay_set(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  relay_t *r = relay_of(env, argv[0]);
  if (!r) return NULL;
  int32_t want = 0;
  CHECK(napi_get_value_int32(env, argv[1], &want));
  pthread_mutex_lock(&r->mu);
  if (r->closed || !r->running) want = 0;
  if (r->out_written != r->out.len) want &= ~WRITE_TTY;
  if (r->held.len > 0) want &= ~READ_TTY;
  if (r->pty_end) want &= ~(READ_PTY | WRITE_PTY);
  if (r->tty_in_end) want &= ~READ_TTY;
  if (r->tty_out_error) want &= ~WRITE_TTY;
  int changed = want != r->flags;
  r->flags = want;
  pthread_mutex_unlock(&r->mu);
  if (changed) wake_thread(r);
  napi_value out;
  CHECK(napi_create_int32(env, want, &out));
  return out;
}

static napi_value int_or_null(napi_env env, int v) {
  napi_value out;
  if (v == 0) napi_get_null(env, &out);
  else napi_create_int32(env, v, &out);
  return out;
}

/* take(relay): [output | null, written, typed, keys | null, ptyEnd, keysEnd, terminalError], or
   undefined when there is nothing: every byte read since the last take, in order. */
static napi_value relay_take(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  relay_t *r = relay_of(env, argv[0]);
  if (!r) return NULL;
  pthread_mutex_lock(&r->mu);
  r->notified = 0;
  r->typed_untold = 0; /* told now */
  napi_value result = NULL;
  if (r->out.len || r->held.len || r->typed || r->pty_end || r->tty_in_end || r->tty_out_error) {
    napi_value items[7];
    int room_freed = r->out.len >= MAX_PENDING_BYTES;
    if (r->out.len) napi_create_buffer_copy(env, r->out.len, r->out.data, NULL, &items[0]);
    else napi_get_null(env, &items[0]);
    napi_create_double(env, (double)r->out_written, &items[1]);
    napi_create_double(env, (double)r->typed, &items[2]);
    if (r->held.len) napi_create_buffer_copy(env, r->held.len, r->held.data, NULL, &items[3]);
    else napi_get_null(env, &items[3]);
    items[4] = int_or_null(env, r->pty_end);
    items[5] = int_or_null(env, r->tty_in_end);
    items[6] = int_or_null(env, r->tty_out_error);
    r->out.len = r->out_written = r->held.len = r->typed = 0;
    r->pty_end = r->tty_in_end = r->tty_out_error = 0;
    pthread_mutex_unlock(&r->mu);
    if (room_freed) wake_thread(r);
    napi_create_array_with_length(env, 7, &result);
    for (uint32_t i = 0; i < 7; i++) napi_set_element(env, result, i, items[i]);
    return result;
  }
  pthread_mutex_unlock(&r->mu);
  napi_get_undefined(env, &result);
  return result;
}

/* writePty(relay, bytes): how many the PTY took, or -errno. JavaScript's own input goes this way
   while the thread may type, so a key never lands inside a write; what is left over clears WRITE_PTY. */
static napi_value relay_write_pty(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  relay_t *r = relay_of(env, argv[0]);
  if (!r) return NULL;
  void *data = NULL;
  size_t len = 0;
  CHECK(napi_get_typedarray_info(env, argv[1], NULL, &len, &data, NULL, NULL));
  pthread_mutex_lock(&r->mu);
  ssize_t w = r->closed ? -EBADF : write(r->pty, data, len);
  if (w < 0 && !r->closed) w = -errno;
  if (w < (ssize_t)len) r->flags &= ~WRITE_PTY;
  pthread_mutex_unlock(&r->mu);
  napi_value out;
  CHECK(napi_create_int32(env, (int32_t)w, &out));
  return out;
}

/* close(relay): the thread is stopped and joined; output the PTY still holds is read (not written
   to the terminal) for the last take; then the fds are closed. */
static napi_value relay_close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  relay_t *r = relay_of(env, argv[0]);
  if (!r || r->closed) return NULL;
  stop_thread(r);
  pthread_mutex_lock(&r->mu);
  if ((r->flags & READ_PTY) && !r->pty_end) {
    char buf[16 * 1024];
    for (;;) {
      ssize_t n = read(r->pty, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || !grow(&r->out, buf, (size_t)n)) break;
    }
  }
  r->flags = 0;
  r->closed = 1;
  pthread_mutex_unlock(&r->mu);
  napi_release_threadsafe_function(r->wake_js, napi_tsfn_abort);
  close_fds(r);
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"open", NULL, relay_open, NULL, NULL, NULL, napi_default, NULL},
      {"set", NULL, relay_set, NULL, NULL, NULL, napi_default, NULL},
      {"take", NULL, relay_take, NULL, NULL, NULL, napi_default, NULL},
      {"writePty", NULL, relay_write_pty, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, relay_close, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
