#define _GNU_SOURCE
#include "scoreboard_mqtt.h"

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <mosquitto.h>
#include <mqtt_protocol.h>

// While this many messages, or this many bytes of them, wait for the loop, the worker
// reads nothing more from the broker: the messages wait there (TCP and the broker's
// queue hold them back), none that was acknowledged is dropped here.
enum { MAX_QUEUED_MESSAGES = 4096, MAX_QUEUED_BYTES = 4 << 20, MAX_SUBSCRIPTIONS = 16 };
// The largest packet the broker may send (MQTT 5's Maximum Packet Size, announced on
// CONNECT: Mosquitto never sends more, it drops the message). A message larger than
// this that arrives all the same is refused with an SBM_REFUSED event.
enum { MAX_PACKET = SBM_MAXIMUM_PACKET_SIZE };
// How many QoS 1 and 2 messages the broker may have in flight to this client (MQTT 5's
// Receive Maximum).
enum { RECEIVE_MAXIMUM = 100 };
enum { FIRST_BACKOFF_MS = 1000, LAST_BACKOFF_MS = 60000 };
// While this many bytes of the loop's publications wait for the worker, the loop's next
// one is refused: the worker has not run for as long as it took to publish them.
enum { MAX_OUTBOX_BYTES = 4 << 20 };
// What libmosquitto logged as errors during one connection attempt (OpenSSL's reasons
// among them) is kept up to this many bytes and told with the attempt's end.
enum { MAX_ATTEMPT_LOG = 400 };

typedef struct queued_event {
  sbm_event event;
  struct queued_event *next;
} queued_event;

// A publication of the loop's that waits for the worker, which was using the connection
// when the loop published: the loop never waits for the worker.
typedef struct outgoing {
  struct outgoing *next;
  char *topic;
  uint8_t *payload;
  size_t payload_length;
  int qos;
  int retain;
  mosquitto_property *properties;
} outgoing;

struct sbm_client {
  // The libmosquitto client of the current connection. Each attempt gets a new one, so
  // that nothing of an earlier connection (messages libmosquitto would send again after
  // reconnecting, such as an old state document) reaches the broker: the daemon
  // publishes its state anew on every connection. Only the worker replaces it, holding
  // `mosq_lock`; other threads hold `mosq_lock` while they use it, and so does the
  // worker while connected without TLS: the socket is closed under it, never while the
  // loop writes a publication to it (with TLS, the other threads only queue packets).
  struct mosquitto *mosq;
  pthread_mutex_t mosq_lock;
  // The options, kept to make each connection's client.
  char *host;
  int port;
  int keepalive;
  char *client_id;
  char *username;
  char *password;
  int tls;
  char *ca_file;
  char *will_topic;
  char *will_payload;
  int will_qos;
  int will_retain;
  int event_fd;
  // Wakes the worker from its poll: something waits to be written, or it is to stop.
  int wake_fd;
  pthread_t thread;
  int started;

  pthread_mutex_t lock;
  pthread_cond_t wake;
  // Under `lock`:
  int stopping;
  int finished;
  int abandoned;
  int connected;
  // A connection attempt's end was reported (by a callback or the worker).
  int attempt_reported;
  // The broker accepted the last connection: the back-off starts again at its first.
  int accepted;
  queued_event *head;
  queued_event *tail;
  int queued_messages;
  size_t queued_bytes;
  // The worker waits on `drained` while the queue is full.
  pthread_cond_t drained;
  // The loop's publications that wait for the worker (without TLS), oldest first. The
  // worker takes them only while it holds `mosq_lock`, and the loop writes its own to
  // the socket only while none waits, so that they go out in the order published.
  outgoing *outbox_head;
  outgoing *outbox_tail;
  size_t outbox_bytes;
  // The errors libmosquitto logged since the attempt began, "; " between them.
  char attempt_log[MAX_ATTEMPT_LOG];
  struct {
    char *topic;
    int qos;
    // MQTT 5 subscription options (MQTT_SUB_OPT_*).
    int options;
  } subscriptions[MAX_SUBSCRIPTIONS];
  int subscription_count;
};

// libmosquitto is loaded when the first client is made, not when the daemon starts:
// it brings OpenSSL (about 2 MB of memory), which a board without [mqtt] never needs.
// These are the functions the shim calls, each through `api`.
#define MOSQUITTO_FUNCTIONS(X) \
  X(mosquitto_connect_bind_v5) \
  X(mosquitto_connect_v5_callback_set) \
  X(mosquitto_destroy) \
  X(mosquitto_disconnect_v5) \
  X(mosquitto_disconnect_v5_callback_set) \
  X(mosquitto_int_option) \
  X(mosquitto_lib_init) \
  X(mosquitto_lib_version) \
  X(mosquitto_log_callback_set) \
  X(mosquitto_loop) \
  X(mosquitto_loop_misc) \
  X(mosquitto_loop_read) \
  X(mosquitto_loop_write) \
  X(mosquitto_message_v5_callback_set) \
  X(mosquitto_new) \
  X(mosquitto_property_add_binary) \
  X(mosquitto_property_add_int16) \
  X(mosquitto_property_add_int32) \
  X(mosquitto_property_add_string) \
  X(mosquitto_property_free_all) \
  X(mosquitto_property_read_binary) \
  X(mosquitto_property_read_string) \
  X(mosquitto_publish_v5) \
  X(mosquitto_reason_string) \
  X(mosquitto_socket) \
  X(mosquitto_strerror) \
  X(mosquitto_subscribe_v5) \
  X(mosquitto_threaded_set) \
  X(mosquitto_tls_opts_set) \
  X(mosquitto_tls_set) \
  X(mosquitto_username_pw_set) \
  X(mosquitto_want_write) \
  X(mosquitto_will_set_v5)

static struct {
#define DECLARE(name) __typeof__(&name) name;
  MOSQUITTO_FUNCTIONS(DECLARE)
#undef DECLARE
} api;

static pthread_once_t library_once = PTHREAD_ONCE_INIT;
static int library_loaded;
// Why libmosquitto could not be loaded: the loader's words, and a sentence for people.
static char library_error[200];
static char library_problem[300];

static void load_library(void) {
  void *library = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(library_error, sizeof library_error, "%s", dlerror());
    snprintf(library_problem, sizeof library_problem,
             "libmosquitto cannot be loaded (%s); install it (Debian: apt install libmosquitto1)",
             library_error);
    return;
  }
#define LOAD(name)                                                                 \
  api.name = (__typeof__(&name))dlsym(library, #name);                           \
  if (!api.name) {                                                                \
    snprintf(library_error, sizeof library_error, "it lacks " #name);            \
    snprintf(library_problem, sizeof library_problem,                            \
             "libmosquitto.so.1 lacks " #name                                    \
             " (scoreboardd needs libmosquitto 2.0 or later)");                  \
    return;                                                                       \
  }
  MOSQUITTO_FUNCTIONS(LOAD)
#undef LOAD
  api.mosquitto_lib_init();
  // A fixed threshold (which turns glibc's growing one off): a large packet's buffer is
  // mapped and unmapped on its own, so the memory goes back to the system when it is
  // freed, instead of staying in the heap of the worker's arena until the daemon stops.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  library_loaded = 1;
}

// Loads libmosquitto once; 1 when it is there.
static int library_ready(void) {
  pthread_once(&library_once, load_library);
  return library_loaded;
}

static char *copy_string(const char *text) { return text ? strdup(text) : NULL; }

// A copy of an optional option; *failed is set when a text could not be copied.
static char *copy_option(const char *text, int *failed) {
  char *copy = copy_string(text);
  if (text && !copy) *failed = 1;
  return copy;
}

static uint8_t *copy_bytes(const void *bytes, size_t length) {
  uint8_t *copy = malloc(length ? length : 1);
  if (copy && length) memcpy(copy, bytes, length);
  return copy;
}

// The bytes an event holds, for the queue's limit.
static size_t event_size(const sbm_event *event) {
  return event->payload_length + event->correlation_length + sizeof(queued_event) +
         (event->topic ? strlen(event->topic) : 0) +
         (event->response_topic ? strlen(event->response_topic) : 0);
}

// Whether the loop has as much to take as the worker lets wait; with `lock` held.
static int queue_full_locked(const sbm_client *client) {
  return client->queued_messages >= MAX_QUEUED_MESSAGES ||
         client->queued_bytes >= MAX_QUEUED_BYTES;
}

// Adds one to an eventfd's count, making it readable.
static void signal_eventfd(int fd) {
  uint64_t one = 1;
  ssize_t written;
  do {
    written = write(fd, &one, sizeof one);
  } while (written < 0 && errno == EINTR);
}

// Takes an eventfd's count, so that it is no longer readable.
static void drain_eventfd(int fd) {
  uint64_t count;
  ssize_t got;
  do {
    got = read(fd, &count, sizeof count);
  } while (got < 0 && errno == EINTR);
}

// Appends an event; called with `lock` held. Takes the event's buffers.
static void push_locked(sbm_client *client, const sbm_event *event) {
  queued_event *node = calloc(1, sizeof *node);
  if (!node) {
    sbm_event copy = *event;
    sbm_event_free(&copy);
    return;
  }
  node->event = *event;
  // The eventfd is readable while the queue holds events (the loop drains it when it
  // takes the last one): it is signalled for the first, not for each.
  int was_empty = client->head == NULL;
  if (client->tail)
    client->tail->next = node;
  else
    client->head = node;
  client->tail = node;
  if (event->kind == SBM_MESSAGE) client->queued_messages++;
  client->queued_bytes += event_size(event);
  if (was_empty) signal_eventfd(client->event_fd);
}

// The bytes a publication waiting for the worker holds, for the outbox's limit.
static size_t outgoing_size(const outgoing *item) {
  return sizeof *item + item->payload_length + strlen(item->topic);
}

static void free_outgoing(outgoing *item) {
  free(item->topic);
  free(item->payload);
  api.mosquitto_property_free_all(&item->properties);
  free(item);
}

// Leaves a publication for the worker; called with `lock` held. Takes *properties
// (sets it to NULL) when it succeeds.
static int push_outgoing_locked(sbm_client *client, const char *topic, const void *payload,
                                size_t payload_length, int qos, int retain,
                                mosquitto_property **properties) {
  if (client->outbox_bytes + sizeof(outgoing) + payload_length + strlen(topic) > MAX_OUTBOX_BYTES)
    return MOSQ_ERR_NOMEM;
  outgoing *item = calloc(1, sizeof *item);
  if (!item) return MOSQ_ERR_NOMEM;
  item->topic = strdup(topic);
  item->payload = copy_bytes(payload, payload_length);
  if (!item->topic || !item->payload) {
    free_outgoing(item);
    return MOSQ_ERR_NOMEM;
  }
  item->payload_length = payload_length;
  item->qos = qos;
  item->retain = retain;
  item->properties = *properties;
  *properties = NULL;
  if (client->outbox_tail)
    client->outbox_tail->next = item;
  else
    client->outbox_head = item;
  client->outbox_tail = item;
  client->outbox_bytes += outgoing_size(item);
  return MOSQ_ERR_SUCCESS;
}

// Takes the oldest publication waiting for the worker; called with `lock` held.
static outgoing *take_outgoing_locked(sbm_client *client) {
  outgoing *item = client->outbox_head;
  if (!item) return NULL;
  client->outbox_head = item->next;
  if (!client->outbox_head) client->outbox_tail = NULL;
  client->outbox_bytes -= outgoing_size(item);
  return item;
}

// Drops the publications waiting for the worker; called with `lock` held.
static void drop_outbox_locked(sbm_client *client) {
  outgoing *item;
  while ((item = take_outgoing_locked(client))) free_outgoing(item);
}

// A DISCONNECTED event for the end of an attempt; called with `lock` held.
static void report_end_locked(sbm_client *client, int code, const char *reason) {
  sbm_event event = {.kind = SBM_DISCONNECTED, .code = code};
  const char *log = client->attempt_log;
  size_t length = strlen(reason) + strlen(log) + 4;
  event.text = malloc(length);
  if (event.text) {
    if (*log)
      snprintf(event.text, length, "%s (%s)", reason, log);
    else
      snprintf(event.text, length, "%s", reason);
  }
  client->attempt_log[0] = 0;
  client->connected = 0;
  client->attempt_reported = 1;
  push_locked(client, &event);
}

static void on_connect(struct mosquitto *mosq, void *object, int code, int flags,
                       const mosquitto_property *properties) {
  (void)flags;
  (void)properties;
  sbm_client *client = object;
  pthread_mutex_lock(&client->lock);
  if (code == 0) {
    client->connected = 1;
    client->accepted = 1;
    client->attempt_log[0] = 0;
    // libmosquitto's log is listened to for the errors of an attempt only: with a
    // callback set, it formats a line (a malloc and a vsnprintf) for every packet sent
    // or received, which cost the loop more than the publication it logs. The end of
    // the connection is reported with libmosquitto's reason.
    api.mosquitto_log_callback_set(mosq, NULL);
    for (int index = 0; index < client->subscription_count; index++) {
      api.mosquitto_subscribe_v5(mosq, NULL, client->subscriptions[index].topic,
                                 client->subscriptions[index].qos,
                                 client->subscriptions[index].options, NULL);
    }
    sbm_event event = {.kind = SBM_CONNECTED};
    push_locked(client, &event);
  } else {
    report_end_locked(client, code, api.mosquitto_reason_string(code));
  }
  pthread_mutex_unlock(&client->lock);
}

static void on_disconnect(struct mosquitto *mosq, void *object, int code,
                          const mosquitto_property *properties) {
  (void)mosq;
  (void)properties;
  sbm_client *client = object;
  pthread_mutex_lock(&client->lock);
  if (client->connected && !client->stopping) {
    // A DISCONNECT from the broker carries an MQTT 5 reason code (0x80 and up); an end
    // this side saw (a lost connection, a protocol error) is a libmosquitto error.
    const char *reason = code >= 0x80 ? api.mosquitto_reason_string(code)
                                      : api.mosquitto_strerror(code);
    report_end_locked(client, code, reason);
  }
  client->connected = 0;
  pthread_mutex_unlock(&client->lock);
}

static void on_message(struct mosquitto *mosq, void *object, const struct mosquitto_message *message,
                       const mosquitto_property *properties) {
  (void)mosq;
  sbm_client *client = object;
  if (message->payloadlen < 0) return;
  if (message->payloadlen > SBM_MAXIMUM_PAYLOAD) {
    // A broker that ignored the announced limit: the message is refused, and said so.
    sbm_event refused = {.kind = SBM_REFUSED, .retained = message->retain,
                         .qos = message->qos, .payload_length = (size_t)message->payloadlen};
    refused.topic = copy_string(message->topic);
    pthread_mutex_lock(&client->lock);
    push_locked(client, &refused);
    pthread_mutex_unlock(&client->lock);
    return;
  }
  sbm_event event = {.kind = SBM_MESSAGE, .retained = message->retain, .qos = message->qos};
  event.topic = copy_string(message->topic);
  event.payload = copy_bytes(message->payload, (size_t)message->payloadlen);
  event.payload_length = (size_t)message->payloadlen;
  char *response_topic = NULL;
  if (api.mosquitto_property_read_string(properties, MQTT_PROP_RESPONSE_TOPIC,
                                         &response_topic, false)) {
    event.response_topic = response_topic;
  }
  void *correlation = NULL;
  uint16_t correlation_length = 0;
  if (api.mosquitto_property_read_binary(properties, MQTT_PROP_CORRELATION_DATA, &correlation,
                                         &correlation_length, false)) {
    event.correlation = correlation;
    event.correlation_length = correlation_length;
  }
  if (!event.topic || !event.payload) {
    sbm_event_free(&event);
    return;
  }
  pthread_mutex_lock(&client->lock);
  push_locked(client, &event);
  pthread_mutex_unlock(&client->lock);
}

static void on_log(struct mosquitto *mosq, void *object, int level, const char *text) {
  (void)mosq;
  if (level != MOSQ_LOG_ERR || !text) return;
  sbm_client *client = object;
  pthread_mutex_lock(&client->lock);
  char *log = client->attempt_log;
  size_t used = strlen(log);
  // The same line again (libmosquitto prints OpenSSL's queue more than once) adds nothing.
  if (!strstr(log, text)) {
    snprintf(log + used, sizeof client->attempt_log - used, "%s%s", used ? "; " : "", text);
  }
  pthread_mutex_unlock(&client->lock);
}

static void free_secret(char *text) {
  if (!text) return;
  explicit_bzero(text, strlen(text));
  free(text);
}

static void free_client(sbm_client *client) {
  if (client->mosq) api.mosquitto_destroy(client->mosq);
  drop_outbox_locked(client);
  sbm_event event;
  while (sbm_client_next_event(client, &event)) sbm_event_free(&event);
  for (int index = 0; index < client->subscription_count; index++)
    free(client->subscriptions[index].topic);
  free(client->host);
  free(client->client_id);
  free(client->username);
  free_secret(client->password);
  free(client->ca_file);
  free(client->will_topic);
  free(client->will_payload);
  if (client->event_fd >= 0) close(client->event_fd);
  if (client->wake_fd >= 0) close(client->wake_fd);
  pthread_cond_destroy(&client->wake);
  pthread_cond_destroy(&client->drained);
  pthread_mutex_destroy(&client->lock);
  pthread_mutex_destroy(&client->mosq_lock);
  free(client);
}

// A libmosquitto client set up with the options: NULL with *error_text set (static
// text) when libmosquitto refuses them or has no memory.
static struct mosquitto *make_mosquitto(sbm_client *client, const char **error_text) {
  struct mosquitto *mosq = api.mosquitto_new(client->client_id, true, client);
  if (!mosq) {
    *error_text = "cannot make an MQTT client";
    return NULL;
  }
  api.mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5);
  // Replies and states go out at once, not held back by Nagle's algorithm until the
  // broker acknowledges the packet before (some 40 ms on a quiet link).
  api.mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1);
  // Without TLS, a publication is written to the socket at once by the thread that
  // publishes while the worker is not using it (the socket does not block; what does
  // not fit waits for the worker), so the worker is not woken for it. OpenSSL's
  // connection takes one thread at a time: with TLS the worker alone reads and writes,
  // and a publication only queues (and wakes libmosquitto's loop on the worker through
  // its socket pair).
  api.mosquitto_threaded_set(mosq, client->tls != 0);
  api.mosquitto_connect_v5_callback_set(mosq, on_connect);
  api.mosquitto_disconnect_v5_callback_set(mosq, on_disconnect);
  api.mosquitto_message_v5_callback_set(mosq, on_message);
  api.mosquitto_log_callback_set(mosq, on_log);
  int rc = MOSQ_ERR_SUCCESS;
  if (client->username || client->password) {
    rc = api.mosquitto_username_pw_set(mosq, client->username, client->password);
    if (rc) *error_text = "the user name or password is not accepted";
  }
  if (!rc && client->tls) {
    rc = api.mosquitto_tls_set(mosq, client->ca_file,
                               client->ca_file ? NULL : "/etc/ssl/certs", NULL, NULL, NULL);
    if (!rc) rc = api.mosquitto_tls_opts_set(mosq, 1, NULL, NULL);
    if (rc) *error_text = "the CA file cannot be used for TLS";
  }
  if (!rc && client->will_topic) {
    rc = api.mosquitto_will_set_v5(mosq, client->will_topic, (int)strlen(client->will_payload),
                                   client->will_payload, client->will_qos, client->will_retain,
                                   NULL);
    if (rc) *error_text = "the will is not accepted";
  }
  if (rc) {
    api.mosquitto_destroy(mosq);
    return NULL;
  }
  return mosq;
}

sbm_client *sbm_client_new(const sbm_options *options, const char **error_text) {
  *error_text = NULL;
  if (!library_ready()) {
    *error_text = library_problem;
    errno = ENOENT;
    return NULL;
  }
  sbm_client *client = calloc(1, sizeof *client);
  if (!client) {
    *error_text = "out of memory";
    return NULL;
  }
  client->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  client->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  // The loop takes `lock` for each event; the worker holds it briefly, but may be
  // preempted holding it. As the unit runs the loop (SCHED_FIFO, the worker an ordinary
  // thread), the worker then runs at the loop's priority until it lets go.
  pthread_mutexattr_t lock_attributes;
  pthread_mutexattr_init(&lock_attributes);
  pthread_mutexattr_setprotocol(&lock_attributes, PTHREAD_PRIO_INHERIT);
  pthread_mutex_init(&client->lock, &lock_attributes);
  pthread_mutexattr_destroy(&lock_attributes);
  pthread_mutex_init(&client->mosq_lock, NULL);
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
  pthread_cond_init(&client->wake, &attributes);
  pthread_cond_init(&client->drained, &attributes);
  pthread_condattr_destroy(&attributes);
  int failed = !options->host;
  client->host = copy_option(options->host, &failed);
  client->port = options->port;
  client->keepalive = options->keepalive_seconds;
  client->client_id = copy_option(options->client_id, &failed);
  client->username = copy_option(options->username, &failed);
  client->password = copy_option(options->password, &failed);
  client->tls = options->tls;
  client->ca_file = copy_option(options->ca_file, &failed);
  if (options->will_topic) {
    client->will_topic = copy_option(options->will_topic, &failed);
    client->will_payload = copy_option(options->will_payload ? options->will_payload : "", &failed);
  }
  client->will_qos = options->will_qos;
  client->will_retain = options->will_retain;
  if (client->event_fd < 0 || client->wake_fd < 0) {
    int error = errno;
    *error_text = "cannot make an eventfd";
    free_client(client);
    errno = error;
    return NULL;
  }
  if (failed) {
    *error_text = "out of memory";
    free_client(client);
    errno = ENOMEM;
    return NULL;
  }
  client->mosq = make_mosquitto(client, error_text);
  if (!client->mosq) {
    free_client(client);
    errno = EINVAL;
    return NULL;
  }
  return client;
}

// The time on `clock` `milliseconds` from now.
static struct timespec time_after(clockid_t clock, int milliseconds) {
  struct timespec time;
  clock_gettime(clock, &time);
  time.tv_sec += milliseconds / 1000;
  time.tv_nsec += (long)(milliseconds % 1000) * 1000000L;
  if (time.tv_nsec >= 1000000000L) {
    time.tv_sec++;
    time.tv_nsec -= 1000000000L;
  }
  return time;
}

// Waits `milliseconds`, or until stopping; called with `lock` held. Returns `stopping`.
static int wait_locked(sbm_client *client, int milliseconds) {
  struct timespec until = time_after(CLOCK_MONOTONIC, milliseconds);
  while (!client->stopping) {
    if (pthread_cond_timedwait(&client->wake, &client->lock, &until) == ETIMEDOUT) break;
  }
  return client->stopping;
}

// Newer libmosquitto runs the TLS handshake inside its reads and writes, and tells a
// failed one as errno EPROTO ("Protocol error"); older ones return MOSQ_ERR_TLS. Both
// are told as the TLS error they are.
static const char *attempt_error(const sbm_client *client, int code, int error) {
  if (code == MOSQ_ERR_ERRNO && error == EPROTO && client->tls)
    return api.mosquitto_strerror(MOSQ_ERR_TLS);
  return code == MOSQ_ERR_ERRNO ? strerror(error) : api.mosquitto_strerror(code);
}

// Gives the client a new libmosquitto client for the next connection; the old one and
// what it still held go. Returns MOSQ_ERR_SUCCESS, or MOSQ_ERR_NOMEM.
static int renew_mosquitto(sbm_client *client) {
  const char *error_text = NULL;
  struct mosquitto *fresh = make_mosquitto(client, &error_text);
  if (!fresh) return MOSQ_ERR_NOMEM;
  pthread_mutex_lock(&client->mosq_lock);
  struct mosquitto *old = client->mosq;
  client->mosq = fresh;
  pthread_mutex_unlock(&client->mosq_lock);
  api.mosquitto_destroy(old);
  return MOSQ_ERR_SUCCESS;
}

// Connects the current libmosquitto client, announcing the largest packet and the
// most messages in flight this client takes. Blocks this thread.
static int connect_to_broker(sbm_client *client) {
  mosquitto_property *properties = NULL;
  int rc = api.mosquitto_property_add_int32(&properties, MQTT_PROP_MAXIMUM_PACKET_SIZE,
                                            MAX_PACKET);
  if (!rc)
    rc = api.mosquitto_property_add_int16(&properties, MQTT_PROP_RECEIVE_MAXIMUM,
                                          RECEIVE_MAXIMUM);
  if (!rc)
    rc = api.mosquitto_connect_bind_v5(client->mosq, client->host, client->port,
                                       client->keepalive, NULL, properties);
  int error = errno;
  api.mosquitto_property_free_all(&properties);
  errno = error;
  return rc;
}

// Waits while the loop has a full queue to take (at most a second at a time, so that
// the connection's keep-alive goes on), or until stopping.
static void wait_for_room(sbm_client *client) {
  pthread_mutex_lock(&client->lock);
  if (queue_full_locked(client) && !client->stopping) {
    struct timespec until = time_after(CLOCK_MONOTONIC, 1000);
    while (queue_full_locked(client) && !client->stopping) {
      if (pthread_cond_timedwait(&client->drained, &client->lock, &until) == ETIMEDOUT) break;
    }
  }
  pthread_mutex_unlock(&client->lock);
}

// Wakes the worker from its poll.
static void wake_worker(sbm_client *client) { signal_eventfd(client->wake_fd); }

// Publishes the loop's publications that wait for the worker, oldest first; called with
// `mosq_lock` held, so that no publication of the loop's overtakes them. Those of a
// connection that ended are dropped, as the loop's own would be refused then: the state
// goes out again on connecting.
static void publish_outbox(sbm_client *client) {
  for (;;) {
    pthread_mutex_lock(&client->lock);
    if (!client->connected) drop_outbox_locked(client);
    outgoing *item = take_outgoing_locked(client);
    pthread_mutex_unlock(&client->lock);
    if (!item) return;
    (void)api.mosquitto_publish_v5(client->mosq, NULL, item->topic, (int)item->payload_length,
                                   item->payload, item->qos, item->retain, item->properties);
    free_outgoing(item);
  }
}

// One round of a connection without TLS: waits up to `wait_ms` for the broker, the
// socket's room for what is left to write, or the eventfd; then reads, writes and
// keeps the connection alive. libmosquitto's code, with errno in *error.
static int run_round(sbm_client *client, int wait_ms, int *error) {
  pthread_mutex_lock(&client->mosq_lock);
  int sock = api.mosquitto_socket(client->mosq);
  short events = POLLIN | (api.mosquitto_want_write(client->mosq) ? POLLOUT : 0);
  pthread_mutex_unlock(&client->mosq_lock);
  // Closed by libmosquitto: the DISCONNECT of sbm_client_stop went out.
  *error = 0;
  if (sock < 0) return MOSQ_ERR_NO_CONN;
  struct pollfd watched[2] = {{.fd = sock, .events = events},
                              {.fd = client->wake_fd, .events = POLLIN}};
  int ready = poll(watched, 2, wait_ms);
  if (ready < 0 && errno != EINTR) {
    *error = errno;
    return MOSQ_ERR_ERRNO;
  }
  if (ready > 0 && watched[1].revents) drain_eventfd(client->wake_fd);
  int rc = MOSQ_ERR_SUCCESS;
  pthread_mutex_lock(&client->mosq_lock);
  publish_outbox(client);
  errno = 0;
  // The socket polled is still the client's: not closed since by a DISCONNECT that
  // sbm_client_stop wrote.
  if (ready > 0 && watched[0].revents & (POLLIN | POLLHUP | POLLERR) &&
      api.mosquitto_socket(client->mosq) == sock)
    rc = api.mosquitto_loop_read(client->mosq, 1);
  if (!rc && api.mosquitto_socket(client->mosq) >= 0 && api.mosquitto_want_write(client->mosq))
    rc = api.mosquitto_loop_write(client->mosq, 1);
  if (!rc && api.mosquitto_socket(client->mosq) >= 0) rc = api.mosquitto_loop_misc(client->mosq);
  *error = errno;
  pthread_mutex_unlock(&client->mosq_lock);
  return rc;
}

// How long the worker sleeps at most while connected: a fifth of the keep-alive, so
// that libmosquitto sends its PINGREQ at most that late (the broker waits one and a
// half keep-alives), and wakes no more often than that on a quiet connection.
static int keepalive_check_ms(const sbm_client *client) {
  int milliseconds = client->keepalive * 200;
  return milliseconds < 1000 ? 1000 : milliseconds;
}

// Runs the connected client until the connection ends, or until a few rounds after
// sbm_client_stop have written the DISCONNECT (and what was published before it).
// Returns libmosquitto's code, with errno as it was after the failing call in *error.
//
// Without TLS, the worker reads what the broker sends and writes what the publishing
// thread left; it is woken by its eventfd for that, never for a publication the
// publishing thread wrote itself (libmosquitto's own loop watches the socket pair that
// every publication writes a byte to, and would wake for each). With TLS it runs
// libmosquitto's loop, which knows when the handshake lets it write.
static int run_connection(sbm_client *client, int *error) {
  int rc = MOSQ_ERR_SUCCESS;
  int rounds_left = -1;
  int quiet_ms = keepalive_check_ms(client);
  while (rounds_left != 0) {
    wait_for_room(client);
    int wait_ms = rounds_left < 0 ? (client->tls ? 1000 : quiet_ms) : 100;
    if (client->tls) {
      errno = 0;
      rc = api.mosquitto_loop(client->mosq, wait_ms, 1);
      *error = errno;
    } else {
      rc = run_round(client, wait_ms, error);
    }
    if (rc) return rc;
    pthread_mutex_lock(&client->lock);
    if (client->stopping && rounds_left < 0) rounds_left = 5;
    pthread_mutex_unlock(&client->lock);
    if (rounds_left > 0) rounds_left--;
  }
  return rc;
}

static void *run_worker(void *argument) {
  sbm_client *client = argument;
  // Named for `top -H`. It keeps the loop's priority: a thread any nicer reads a burst
  // slower than the broker sends it, and Mosquitto drops what overflows its queue.
  (void)pthread_setname_np(pthread_self(), "sbd-mqtt");
  int backoff = FIRST_BACKOFF_MS;
  int first = 1;
  pthread_mutex_lock(&client->lock);
  while (!client->stopping) {
    client->attempt_reported = 0;
    client->accepted = 0;
    client->attempt_log[0] = 0;
    pthread_mutex_unlock(&client->lock);
    int rc = first ? MOSQ_ERR_SUCCESS : renew_mosquitto(client);
    first = 0;
    // Name resolution and the TCP connection happen here, off the loop, and block this
    // thread only. The blocking connect tries each of the broker's addresses in turn
    // (the asynchronous one keeps the first whose connection is pending: with
    // "localhost" that is ::1, refused by a broker that listens on 127.0.0.1 alone).
    // Only this thread replaces `mosq`, so it uses it without `mosq_lock`.
    if (rc == MOSQ_ERR_SUCCESS) rc = connect_to_broker(client);
    int error = errno;
    if (rc == MOSQ_ERR_SUCCESS) rc = run_connection(client, &error);
    const char *reason = attempt_error(client, rc, error);
    pthread_mutex_lock(&client->lock);
    if (client->stopping) break;
    if (!client->attempt_reported) report_end_locked(client, rc, reason);
    client->connected = 0;
    drop_outbox_locked(client);
    backoff = client->accepted ? FIRST_BACKOFF_MS : backoff;
    if (wait_locked(client, backoff)) break;
    backoff = backoff * 2 > LAST_BACKOFF_MS ? LAST_BACKOFF_MS : backoff * 2;
  }
  client->finished = 1;
  int abandoned = client->abandoned;
  pthread_mutex_unlock(&client->lock);
  if (abandoned) free_client(client);
  return NULL;
}

int sbm_client_start(sbm_client *client) {
  int error = pthread_create(&client->thread, NULL, run_worker, client);
  if (!error) client->started = 1;
  return error;
}

int sbm_client_event_fd(const sbm_client *client) { return client->event_fd; }

int sbm_client_next_event(sbm_client *client, sbm_event *event) {
  pthread_mutex_lock(&client->lock);
  queued_event *node = client->head;
  if (node) {
    int was_full = queue_full_locked(client);
    client->head = node->next;
    if (!client->head) client->tail = NULL;
    if (node->event.kind == SBM_MESSAGE) client->queued_messages--;
    client->queued_bytes -= event_size(&node->event);
    *event = node->event;
    free(node);
    if (was_full && !queue_full_locked(client)) pthread_cond_signal(&client->drained);
  }
  if (!client->head) drain_eventfd(client->event_fd);
  pthread_mutex_unlock(&client->lock);
  return node != NULL;
}

void sbm_event_free(sbm_event *event) {
  free(event->text);
  free(event->topic);
  free(event->payload);
  free(event->response_topic);
  free(event->correlation);
  memset(event, 0, sizeof *event);
}

int sbm_client_subscribe(sbm_client *client, const char *topic, int qos,
                         int retain_as_published) {
  int options = retain_as_published ? MQTT_SUB_OPT_RETAIN_AS_PUBLISHED : 0;
  pthread_mutex_lock(&client->lock);
  int rc = MOSQ_ERR_SUCCESS;
  if (client->subscription_count == MAX_SUBSCRIPTIONS) {
    rc = MOSQ_ERR_NOMEM;
  } else {
    char *copy = strdup(topic);
    if (!copy) {
      rc = MOSQ_ERR_NOMEM;
    } else {
      client->subscriptions[client->subscription_count].topic = copy;
      client->subscriptions[client->subscription_count].qos = qos;
      client->subscriptions[client->subscription_count].options = options;
      client->subscription_count++;
    }
  }
  int connected = client->connected;
  pthread_mutex_unlock(&client->lock);
  if (rc == MOSQ_ERR_SUCCESS && connected) {
    pthread_mutex_lock(&client->mosq_lock);
    rc = api.mosquitto_subscribe_v5(client->mosq, NULL, topic, qos, options, NULL);
    int left = !rc && !client->tls && api.mosquitto_want_write(client->mosq);
    pthread_mutex_unlock(&client->mosq_lock);
    if (left) wake_worker(client);
  }
  return rc;
}

int sbm_client_publish(sbm_client *client, const char *topic, const void *payload,
                       size_t payload_length, int qos, int retain, const char *response_topic,
                       const void *correlation, size_t correlation_length) {
  if (payload_length > SBM_MAXIMUM_PAYLOAD * 4) return MOSQ_ERR_PAYLOAD_SIZE;
  mosquitto_property *properties = NULL;
  int rc = MOSQ_ERR_SUCCESS;
  if (response_topic)
    rc = api.mosquitto_property_add_string(&properties, MQTT_PROP_RESPONSE_TOPIC,
                                           response_topic);
  if (!rc && correlation)
    rc = api.mosquitto_property_add_binary(&properties, MQTT_PROP_CORRELATION_DATA, correlation,
                                           (uint16_t)correlation_length);
  int holds_connection = 0;
  int queued = 0;
  if (!rc) {
    // With TLS the worker runs libmosquitto's loop without `mosq_lock` (it takes it only
    // to renew the client), and a publication only queues in libmosquitto: the lock is
    // taken. Without TLS the worker holds it while it reads and writes, and may be
    // preempted holding it: the loop never waits for it, and leaves the publication to
    // the worker while the worker holds the connection, or while earlier ones wait.
    if (client->tls) pthread_mutex_lock(&client->mosq_lock);
    pthread_mutex_lock(&client->lock);
    if (!client->connected) {
      // Offline, libmosquitto would queue QoS 1 messages without limit: the state is
      // published again on connecting instead.
      rc = MOSQ_ERR_NO_CONN;
    } else if (client->tls ||
               (!client->outbox_head && pthread_mutex_trylock(&client->mosq_lock) == 0)) {
      // `mosq_lock` is held from this check to the publishing, so that the client cannot
      // be renewed in between: a message for the connection that ended never waits in
      // the next one's.
      holds_connection = 1;
    } else {
      rc = push_outgoing_locked(client, topic, payload, payload_length, qos, retain, &properties);
      queued = !rc;
    }
    pthread_mutex_unlock(&client->lock);
    if (client->tls && !holds_connection) pthread_mutex_unlock(&client->mosq_lock);
  }
  int left = 0;
  if (holds_connection) {
    rc = api.mosquitto_publish_v5(client->mosq, NULL, topic, (int)payload_length, payload, qos,
                                  retain, properties);
    // What was not written at once waits for the worker (with TLS, all of it; the
    // socket pair wakes libmosquitto's loop for it).
    left = !rc && !client->tls && api.mosquitto_want_write(client->mosq);
    pthread_mutex_unlock(&client->mosq_lock);
  }
  if (queued || left) wake_worker(client);
  api.mosquitto_property_free_all(&properties);
  return rc;
}

void sbm_library_version(char *text, size_t size) {
  if (!library_ready()) {
    snprintf(text, size, "not loaded: %s", library_error);
    return;
  }
  int major = 0, minor = 0, revision = 0;
  api.mosquitto_lib_version(&major, &minor, &revision);
  snprintf(text, size, "%d.%d.%d", major, minor, revision);
}

void sbm_client_stop(sbm_client *client, int wait_milliseconds) {
  if (!client->started) {
    free_client(client);
    return;
  }
  pthread_mutex_lock(&client->lock);
  client->stopping = 1;
  pthread_cond_broadcast(&client->wake);
  pthread_cond_broadcast(&client->drained);
  pthread_mutex_unlock(&client->lock);
  // The broker publishes the will (`offline`) for this DISCONNECT as for a lost one.
  // What the loop published last and left to the worker goes out before it.
  pthread_mutex_lock(&client->mosq_lock);
  publish_outbox(client);
  api.mosquitto_disconnect_v5(client->mosq, MQTT_RC_DISCONNECT_WITH_WILL_MSG, NULL);
  pthread_mutex_unlock(&client->mosq_lock);
  wake_worker(client);
  struct timespec until = time_after(CLOCK_REALTIME, wait_milliseconds);
  if (pthread_timedjoin_np(client->thread, NULL, &until) == 0) {
    free_client(client);
    return;
  }
  pthread_mutex_lock(&client->lock);
  int finished = client->finished;
  if (!finished) client->abandoned = 1;
  pthread_mutex_unlock(&client->lock);
  if (finished) {
    pthread_join(client->thread, NULL);
    free_client(client);
  } else {
    pthread_detach(client->thread);
  }
}
