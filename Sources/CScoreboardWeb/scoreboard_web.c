// An HTTP server over libmicrohttpd in external epoll mode; see scoreboard_web.h.

#define _GNU_SOURCE
#include "scoreboard_web.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

// The functions of libmicrohttpd the shim calls, all in 0.9.75 and 1.0.
#define MHD_FUNCTIONS(X) \
  X(MHD_start_daemon) \
  X(MHD_stop_daemon) \
  X(MHD_get_daemon_info) \
  X(MHD_get_timeout) \
  X(MHD_run) \
  X(MHD_lookup_connection_value) \
  X(MHD_get_connection_info) \
  X(MHD_create_response_from_buffer) \
  X(MHD_create_response_from_callback) \
  X(MHD_add_response_header) \
  X(MHD_queue_response) \
  X(MHD_destroy_response) \
  X(MHD_suspend_connection) \
  X(MHD_resume_connection)

static struct {
#define DECLARE(name) __typeof__(&name) name;
  MHD_FUNCTIONS(DECLARE)
#undef DECLARE
} api;

static pthread_once_t library_once = PTHREAD_ONCE_INIT;
static int library_loaded;
static char library_problem[300];

static void load_library(void) {
  void *library = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(library_problem, sizeof library_problem,
             "libmicrohttpd cannot be loaded (%s); install it (Debian: apt install "
             "libmicrohttpd12t64, or libmicrohttpd12 on bookworm)",
             dlerror());
    return;
  }
#define LOAD(name)                                                                      \
  api.name = (__typeof__(&name))dlsym(library, #name);                                \
  if (!api.name) {                                                                     \
    snprintf(library_problem, sizeof library_problem,                                 \
             "libmicrohttpd.so.12 lacks " #name " (scoreboardd needs 0.9.75 or later)"); \
    return;                                                                            \
  }
  MHD_FUNCTIONS(LOAD)
#undef LOAD
  library_loaded = 1;
}

typedef struct stream {
  uint64_t id;
  sbw_server *server;
  struct MHD_Connection *connection;
  // The client's socket, watched for its end while the stream waits (suspended).
  int fd;
  uint8_t *bytes;
  size_t length;
  size_t capacity;
  int suspended;
  // The client let too much wait: the stream ends.
  int dropped;
  struct stream *next;
} stream;

// A request while its body comes in, and while its answer is deferred.
typedef struct pending_request {
  uint8_t body[SBW_MAXIMUM_BODY];
  size_t length;
  int too_large;
  // Answered (413) before its body came: what comes is dropped.
  int answered_early;
  // Deferred: the connection is suspended until sbw_deferred_respond gives the answer.
  int deferred;
  uint64_t id;
  struct MHD_Connection *connection;
  // The deferred answer, once given.
  int ready;
  int status;
  char *content_type;
  uint8_t *answer;
  size_t answer_length;
  char *headers;
  struct pending_request *next;
} pending_request;

struct sbw_server {
  struct MHD_Daemon *daemon;
  int port;
  sbw_handler handler;
  sbw_stream_closed closed;
  void *context;
  stream *streams;
  uint64_t next_stream;
  pending_request *deferred;
  uint64_t next_deferred;
  // An epoll descriptor of the streams' sockets: libmicrohttpd does not watch a
  // suspended connection, so a client that leaves would hold its connection (and its
  // place under the per-address limit) until the next event.
  int watch_fd;
};

struct sbw_exchange {
  sbw_server *server;
  struct MHD_Connection *connection;
  pending_request *pending;
  int answered;
};

static stream *find_stream(sbw_server *server, uint64_t id) {
  for (stream *s = server->streams; s; s = s->next) {
    if (s->id == id) return s;
  }
  return NULL;
}

static void remove_stream(sbw_server *server, stream *gone) {
  for (stream **link = &server->streams; *link; link = &(*link)->next) {
    if (*link == gone) {
      *link = gone->next;
      return;
    }
  }
}

// libmicrohttpd asks for the next bytes of a stream.
static ssize_t read_stream(void *cls, uint64_t position, char *buffer, size_t size) {
  (void)position;
  stream *s = cls;
  if (s->dropped) return MHD_CONTENT_READER_END_WITH_ERROR;
  if (s->length == 0) {
    api.MHD_suspend_connection(s->connection);
    s->suspended = 1;
    return 0;
  }
  size_t count = s->length < size ? s->length : size;
  memcpy(buffer, s->bytes, count);
  memmove(s->bytes, s->bytes + count, s->length - count);
  s->length -= count;
  return (ssize_t)count;
}

static void unwatch(stream *s) {
  if (s->fd < 0) return;
  epoll_ctl(s->server->watch_fd, EPOLL_CTL_DEL, s->fd, NULL);
  s->fd = -1;
}

// The stream's response is freed: its connection ended.
static void free_stream(void *cls) {
  stream *s = cls;
  unwatch(s);
  remove_stream(s->server, s);
  if (s->server->closed) s->server->closed(s->server->context, s->id);
  free(s->bytes);
  free(s);
}

static int append(stream *s, const uint8_t *bytes, size_t length) {
  if (s->length + length > SBW_STREAM_QUEUE_LIMIT) return -1;
  if (s->length + length > s->capacity) {
    size_t capacity = s->capacity ? s->capacity : 4096;
    while (capacity < s->length + length) capacity *= 2;
    uint8_t *grown = realloc(s->bytes, capacity);
    if (!grown) return -1;
    s->bytes = grown;
    s->capacity = capacity;
  }
  memcpy(s->bytes + s->length, bytes, length);
  s->length += length;
  return 0;
}

int sbw_stream_send(sbw_server *server, uint64_t id, const uint8_t *bytes, size_t length) {
  stream *s = find_stream(server, id);
  if (!s || s->dropped) return -1;
  int result = append(s, bytes, length);
  if (result != 0) s->dropped = 1;
  if (s->suspended) {
    s->suspended = 0;
    api.MHD_resume_connection(s->connection);
  }
  return result;
}

static int add_headers(struct MHD_Response *response, const char *headers) {
  if (!headers) return 0;
  const char *line = headers;
  while (*line) {
    const char *end = strchr(line, '\n');
    size_t length = end ? (size_t)(end - line) : strlen(line);
    const char *colon = memchr(line, ':', length);
    if (colon) {
      char name[128];
      char value[512];
      size_t name_length = (size_t)(colon - line);
      const char *value_start = colon + 1;
      while (value_start < line + length && *value_start == ' ') value_start++;
      size_t value_length = (size_t)(line + length - value_start);
      if (name_length < sizeof name && value_length < sizeof value) {
        memcpy(name, line, name_length);
        name[name_length] = 0;
        memcpy(value, value_start, value_length);
        value[value_length] = 0;
        if (api.MHD_add_response_header(response, name, value) != MHD_YES) return -1;
      }
    }
    if (!end) break;
    line = end + 1;
  }
  return 0;
}

int sbw_exchange_respond(sbw_exchange *exchange, int status, const char *content_type,
                         const uint8_t *body, size_t length, const char *headers) {
  if (exchange->answered) return -1;
  struct MHD_Response *response = api.MHD_create_response_from_buffer(
      length, (void *)(length ? body : (const uint8_t *)""), MHD_RESPMEM_MUST_COPY);
  if (!response) return -1;
  if (content_type) api.MHD_add_response_header(response, "Content-Type", content_type);
  add_headers(response, headers);
  enum MHD_Result queued = api.MHD_queue_response(exchange->connection, (unsigned)status, response);
  api.MHD_destroy_response(response);
  exchange->answered = 1;
  return queued == MHD_YES ? 0 : -1;
}

int sbw_exchange_open_stream(sbw_exchange *exchange, const uint8_t *body, size_t length,
                             uint64_t *id) {
  if (exchange->answered) return -1;
  stream *s = calloc(1, sizeof *s);
  if (!s) return -1;
  s->server = exchange->server;
  s->connection = exchange->connection;
  s->id = ++exchange->server->next_stream;
  if (append(s, body, length) != 0) {
    free(s);
    return -1;
  }
  struct MHD_Response *response =
      api.MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, read_stream, s, free_stream);
  if (!response) {
    free(s->bytes);
    free(s);
    return -1;
  }
  // A small send buffer: a client that does not read fills it soon and is dropped, and
  // a hundred pages do not hold megabytes of kernel memory each.
  const union MHD_ConnectionInfo *info =
      api.MHD_get_connection_info(exchange->connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  s->fd = -1;
  if (info) {
    int size = 16384;
    setsockopt(info->connect_fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    struct epoll_event event = {.events = EPOLLIN | EPOLLRDHUP, .data.u64 = s->id};
    if (epoll_ctl(exchange->server->watch_fd, EPOLL_CTL_ADD, info->connect_fd, &event) == 0) {
      s->fd = info->connect_fd;
    }
  }
  s->next = exchange->server->streams;
  exchange->server->streams = s;
  api.MHD_add_response_header(response, "Content-Type", "text/event-stream");
  api.MHD_add_response_header(response, "Cache-Control", "no-store");
  api.MHD_add_response_header(response, "X-Accel-Buffering", "no");
  enum MHD_Result queued = api.MHD_queue_response(exchange->connection, MHD_HTTP_OK, response);
  api.MHD_destroy_response(response);
  exchange->answered = 1;
  if (queued != MHD_YES) return -1;
  *id = s->id;
  return 0;
}

int sbw_exchange_defer(sbw_exchange *exchange, uint64_t *id) {
  if (exchange->answered || !exchange->pending) return -1;
  pending_request *pending = exchange->pending;
  pending->deferred = 1;
  pending->id = ++exchange->server->next_deferred;
  pending->connection = exchange->connection;
  pending->next = exchange->server->deferred;
  exchange->server->deferred = pending;
  api.MHD_suspend_connection(exchange->connection);
  exchange->answered = 1;
  *id = pending->id;
  return 0;
}

static char *copy_text(const char *text) {
  if (!text) return NULL;
  size_t length = strlen(text);
  char *copy = malloc(length + 1);
  if (copy) memcpy(copy, text, length + 1);
  return copy;
}

static void free_answer(pending_request *pending) {
  free(pending->content_type);
  free(pending->answer);
  free(pending->headers);
  pending->content_type = NULL;
  pending->answer = NULL;
  pending->headers = NULL;
}

int sbw_deferred_respond(sbw_server *server, uint64_t id, int status, const char *content_type,
                         const uint8_t *body, size_t length, const char *headers) {
  pending_request **link = &server->deferred;
  while (*link && (*link)->id != id) link = &(*link)->next;
  pending_request *pending = *link;
  if (!pending) return -1;
  *link = pending->next;
  pending->next = NULL;
  pending->status = status;
  pending->content_type = copy_text(content_type);
  pending->headers = copy_text(headers);
  pending->answer = malloc(length ? length : 1);
  if (pending->answer && length) memcpy(pending->answer, body, length);
  pending->answer_length = pending->answer ? length : 0;
  pending->ready = 1;
  api.MHD_resume_connection(pending->connection);
  return 0;
}

int sbw_streams_check(sbw_server *server) {
  struct epoll_event events[64];
  int ended = 0;
  int count;
  while ((count = epoll_wait(server->watch_fd, events, 64, 0)) > 0) {
    for (int i = 0; i < count; i++) {
      stream *s = find_stream(server, events[i].data.u64);
      if (!s || s->fd < 0) continue;
      // A stream's client sends nothing after its request: a readable socket is one
      // whose client left (or misbehaves). Either way the stream ends.
      char byte;
      ssize_t got = recv(s->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) &&
          !(events[i].events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR))) {
        continue;
      }
      unwatch(s);
      s->dropped = 1;
      if (s->suspended) {
        s->suspended = 0;
        api.MHD_resume_connection(s->connection);
      }
      ended++;
    }
    if (count < 64) break;
  }
  return ended;
}

int sbw_server_watch_descriptor(sbw_server *server) { return server->watch_fd; }

const char *sbw_exchange_argument(sbw_exchange *exchange, const char *name) {
  return api.MHD_lookup_connection_value(exchange->connection, MHD_GET_ARGUMENT_KIND, name);
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection,
                                      const char *url, const char *method,
                                      const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **request_state) {
  (void)version;
  sbw_server *server = cls;
  pending_request *pending = *request_state;
  if (!pending) {
    pending = calloc(1, sizeof *pending);
    if (!pending) return MHD_NO;
    *request_state = pending;
    // A body announced beyond the limit is refused before it is read, and before a
    // client that asked (Expect: 100-continue) is invited to send it.
    const char *length =
        api.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
    if (length) {
      char *end = NULL;
      errno = 0;
      unsigned long long announced = strtoull(length, &end, 10);
      if (errno != 0 || end == length || announced > SBW_MAXIMUM_BODY) {
        sbw_exchange exchange = {
            .server = server, .connection = connection, .pending = pending, .answered = 0};
        static const char text[] = "request body too large\n";
        sbw_exchange_respond(&exchange, 413, "text/plain; charset=utf-8",
                             (const uint8_t *)text, sizeof text - 1, "Connection: close\n");
        pending->answered_early = 1;
        return MHD_YES;
      }
    }
    return MHD_YES;
  }
  if (pending->answered_early) {
    *upload_data_size = 0;
    return MHD_YES;
  }
  if (*upload_data_size > 0) {
    if (pending->length + *upload_data_size > SBW_MAXIMUM_BODY) {
      pending->too_large = 1;
    } else {
      memcpy(pending->body + pending->length, upload_data, *upload_data_size);
      pending->length += *upload_data_size;
    }
    *upload_data_size = 0;
    return MHD_YES;
  }
  sbw_exchange exchange = {
      .server = server, .connection = connection, .pending = pending, .answered = 0};
  if (pending->deferred) {
    // Resumed: the answer has come.
    if (!pending->ready) return MHD_YES;
    sbw_exchange_respond(&exchange, pending->status, pending->content_type, pending->answer,
                         pending->answer_length, pending->headers);
    free_answer(pending);
    return MHD_YES;
  }
  if (pending->too_large) {
    static const char text[] = "request body too large\n";
    sbw_exchange_respond(&exchange, 413, "text/plain; charset=utf-8",
                         (const uint8_t *)text, sizeof text - 1, "Connection: close\n");
    return MHD_YES;
  }
  char address[INET6_ADDRSTRLEN] = "";
  const union MHD_ConnectionInfo *info =
      api.MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info && info->client_addr) {
    const struct sockaddr *peer = info->client_addr;
    if (peer->sa_family == AF_INET) {
      inet_ntop(AF_INET, &((const struct sockaddr_in *)peer)->sin_addr, address, sizeof address);
    } else if (peer->sa_family == AF_INET6) {
      inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)peer)->sin6_addr, address,
                sizeof address);
    }
  }
  sbw_request request = {
      .method = method,
      .path = url,
      .host = api.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Host"),
      .origin = api.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Origin"),
      .cookie = api.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Cookie"),
      .accept = api.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Accept"),
      .body = pending->body,
      .body_length = pending->length,
      .client_address = address,
  };
  server->handler(server->context, &exchange, &request);
  if (!exchange.answered) {
    static const char text[] = "internal error\n";
    sbw_exchange_respond(&exchange, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8",
                         (const uint8_t *)text, sizeof text - 1, NULL);
  }
  return MHD_YES;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Undoes percent-encoding in place, but leaves %00 as it is: a NUL would end the C string
// and turn /board%00.html into /board.
static size_t unescape(void *cls, struct MHD_Connection *connection, char *text) {
  (void)cls;
  (void)connection;
  char *out = text;
  for (char *in = text; *in;) {
    int high = in[0] == '%' ? hex_value(in[1]) : -1;
    int low = high >= 0 ? hex_value(in[2]) : -1;
    if (high >= 0 && low >= 0 && (high | low) != 0) {
      *out++ = (char)(high * 16 + low);
      in += 3;
    } else {
      *out++ = *in++;
    }
  }
  *out = 0;
  return (size_t)(out - text);
}

static void request_completed(void *cls, struct MHD_Connection *connection, void **request_state,
                              enum MHD_RequestTerminationCode code) {
  (void)cls;
  (void)connection;
  (void)code;
  pending_request *pending = *request_state;
  if (pending) free_answer(pending);
  free(pending);
  *request_state = NULL;
}

// A listening socket of our own, so that a failure names its reason (errno).
static int listen_on(const char *address, int port, int *is_ipv6, char *error, size_t size) {
  struct sockaddr_storage storage;
  memset(&storage, 0, sizeof storage);
  socklen_t length;
  struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
  if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons((uint16_t)port);
    length = sizeof *v4;
    *is_ipv6 = 0;
  } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons((uint16_t)port);
    length = sizeof *v6;
    *is_ipv6 = 1;
  } else {
    snprintf(error, size, "%s is not an IPv4 or IPv6 address", address);
    return -1;
  }
  int descriptor = socket(storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (descriptor < 0) {
    snprintf(error, size, "socket: %s", strerror(errno));
    return -1;
  }
  int on = 1;
  setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (*is_ipv6) {
    // [::] takes IPv4 clients too.
    int off = 0;
    setsockopt(descriptor, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
  }
  if (bind(descriptor, (struct sockaddr *)&storage, length) != 0 ||
      listen(descriptor, 1024) != 0) {
    int saved = errno;
    close(descriptor);
    snprintf(error, size, "cannot listen on %s port %d: %s", address, port, strerror(saved));
    return -1;
  }
  return descriptor;
}

int sbw_library_load(char *problem, size_t size) {
  pthread_once(&library_once, load_library);
  if (library_loaded) return 0;
  snprintf(problem, size, "%s", library_problem);
  return -1;
}

sbw_server *sbw_server_start(const char *address, int port, unsigned connection_limit,
                             unsigned per_address_limit, unsigned timeout_seconds,
                             sbw_handler handler, sbw_stream_closed closed, void *context,
                             char *error, size_t error_size) {
  pthread_once(&library_once, load_library);
  if (!library_loaded) {
    snprintf(error, error_size, "%s", library_problem);
    return NULL;
  }
  int is_ipv6 = 0;
  int descriptor = listen_on(address, port, &is_ipv6, error, error_size);
  if (descriptor < 0) return NULL;
  struct sockaddr_storage bound;
  socklen_t bound_length = sizeof bound;
  getsockname(descriptor, (struct sockaddr *)&bound, &bound_length);
  sbw_server *server = calloc(1, sizeof *server);
  if (!server) {
    close(descriptor);
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  server->port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                                   : ((struct sockaddr_in *)&bound)->sin_port);
  server->handler = handler;
  server->closed = closed;
  server->context = context;
  server->watch_fd = epoll_create1(EPOLL_CLOEXEC);
  if (server->watch_fd < 0) {
    snprintf(error, error_size, "epoll_create1: %s", strerror(errno));
    close(descriptor);
    free(server);
    return NULL;
  }
  unsigned flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | (is_ipv6 ? MHD_USE_IPv6 : 0);
  server->daemon = api.MHD_start_daemon(
      flags, 0, NULL, NULL, access_handler, server, MHD_OPTION_LISTEN_SOCKET, descriptor,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
      per_address_limit, MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768, MHD_OPTION_UNESCAPE_CALLBACK, unescape,
      NULL, MHD_OPTION_NOTIFY_COMPLETED,
      request_completed, NULL, MHD_OPTION_END);
  if (!server->daemon) {
    close(descriptor);
    close(server->watch_fd);
    free(server);
    snprintf(error, error_size, "libmicrohttpd could not start a server on %s port %d", address,
             port);
    return NULL;
  }
  return server;
}

int sbw_server_descriptor(sbw_server *server) {
  const union MHD_DaemonInfo *info =
      api.MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_EPOLL_FD);
  return info ? info->epoll_fd : -1;
}

int64_t sbw_server_timeout(sbw_server *server) {
  MHD_UNSIGNED_LONG_LONG milliseconds = 0;
  if (api.MHD_get_timeout(server->daemon, &milliseconds) != MHD_YES) return -1;
  return milliseconds > INT64_MAX ? INT64_MAX : (int64_t)milliseconds;
}

int sbw_server_run(sbw_server *server) {
  return api.MHD_run(server->daemon) == MHD_YES ? 0 : -1;
}

int sbw_server_port(sbw_server *server) { return server->port; }

void sbw_server_stop(sbw_server *server) {
  if (!server) return;
  for (stream *s = server->streams; s; s = s->next) {
    s->dropped = 1;
    if (s->suspended) {
      s->suspended = 0;
      api.MHD_resume_connection(s->connection);
    }
  }
  server->closed = NULL;
  // Suspended requests must be resumed before the daemon stops.
  while (server->deferred) {
    static const char text[] = "the scoreboard is stopping\n";
    sbw_deferred_respond(server, server->deferred->id, 503, "text/plain; charset=utf-8",
                         (const uint8_t *)text, sizeof text - 1, NULL);
  }
  api.MHD_stop_daemon(server->daemon);
  close(server->watch_fd);
  free(server);
}
