#ifndef SCOREBOARD_WEB_H
#define SCOREBOARD_WEB_H

// An HTTP server in the daemon's own loop, over libmicrohttpd in its external mode: no
// thread of its own. The loop watches sbw_server_descriptor (an epoll descriptor) and
// calls sbw_server_run when it is readable or sbw_server_timeout has passed. Each
// complete request (headers and a body of at most SBW_MAXIMUM_BODY bytes) goes to the
// handler, which answers it at once with sbw_exchange_respond, or keeps it open as a
// stream of Server-Sent Events with sbw_exchange_open_stream. libmicrohttpd is loaded
// (dlopen) by the first sbw_server_start, so that a board without a web server never
// loads it.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sbw_server sbw_server;
typedef struct sbw_exchange sbw_exchange;

/// The largest request body taken; a larger one is answered 413.
#define SBW_MAXIMUM_BODY 4096
/// The most bytes a stream keeps for a client that does not read; beyond it the client
/// is dropped.
#define SBW_STREAM_QUEUE_LIMIT 262144

/// One request, valid during the handler's call only. Texts are NUL-terminated; absent
/// headers are NULL.
typedef struct {
  const char *method;
  /// The path as the client sent it, percent-encoding undone by libmicrohttpd.
  const char *path;
  const char *host;
  const char *origin;
  const char *cookie;
  const char *accept;
  /// The body, at most SBW_MAXIMUM_BODY bytes (query arguments: sbw_exchange_argument).
  const uint8_t *body;
  size_t body_length;
  /// The client's address, as text (`192.0.2.7`, `::1`).
  const char *client_address;
} sbw_request;

/// Gets each complete request; answers it through `exchange` before returning.
typedef void (*sbw_handler)(void *context, sbw_exchange *exchange, const sbw_request *request);
/// A stream ended: its client left or was dropped, or the server stopped.
typedef void (*sbw_stream_closed)(void *context, uint64_t stream);

/// Loads libmicrohttpd if it is not loaded yet: 0 when it is there; else -1, with why
/// (and which package to install) in `problem`.
int sbw_library_load(char *problem, size_t size);

/// Starts a server listening on `address` (an IPv4 or IPv6 address, as text) and `port`,
/// with at most `connection_limit` connections and `per_address_limit` from one address;
/// an idle connection is closed after `timeout_seconds`. NULL on failure, with the
/// reason in `error`.
sbw_server *sbw_server_start(const char *address, int port, unsigned connection_limit,
                             unsigned per_address_limit, unsigned timeout_seconds,
                             sbw_handler handler, sbw_stream_closed closed, void *context,
                             char *error, size_t error_size);
/// The descriptor to watch for reading.
int sbw_server_descriptor(sbw_server *server);
/// Milliseconds until sbw_server_run is due without an event, or -1: none.
int64_t sbw_server_timeout(sbw_server *server);
/// A second descriptor to watch for reading: the sockets of the event streams, whose
/// clients' leaving libmicrohttpd does not see while a stream waits for events.
int sbw_server_watch_descriptor(sbw_server *server);
/// Ends the streams whose clients left (run the server afterwards); how many.
int sbw_streams_check(sbw_server *server);
/// Serves what is ready; 0 on success.
int sbw_server_run(sbw_server *server);
/// The port the server listens on (the one chosen for port 0).
int sbw_server_port(sbw_server *server);
/// Closes every connection and the listening socket, and frees the server.
void sbw_server_stop(sbw_server *server);

/// Answers later: the connection waits (suspended) until sbw_deferred_respond gives the
/// answer of `id`. 0 on success.
int sbw_exchange_defer(sbw_exchange *exchange, uint64_t *id);
/// Gives the answer of a deferred request, as sbw_exchange_respond does; -1 when `id`
/// is unknown or was answered.
int sbw_deferred_respond(sbw_server *server, uint64_t id, int status, const char *content_type,
                         const uint8_t *body, size_t length, const char *headers);
/// The query argument `name` of the exchange's request, or NULL.
const char *sbw_exchange_argument(sbw_exchange *exchange, const char *name);
/// Answers with `status`, `content_type` and `body` (copied); `headers` holds more
/// header lines, each `Name: value\n`, or is NULL. 0 on success.
int sbw_exchange_respond(sbw_exchange *exchange, int status, const char *content_type,
                         const uint8_t *body, size_t length, const char *headers);
/// Answers with a stream of Server-Sent Events whose first bytes are `body`; `stream`
/// receives its number for sbw_stream_send. 0 on success.
int sbw_exchange_open_stream(sbw_exchange *exchange, const uint8_t *body, size_t length,
                             uint64_t *stream);
/// Queues `bytes` on a stream; a stream whose client lets more than
/// SBW_STREAM_QUEUE_LIMIT bytes wait is closed. 0 when queued, -1 when the stream is
/// unknown or was closed.
int sbw_stream_send(sbw_server *server, uint64_t stream, const uint8_t *bytes, size_t length);

#ifdef __cplusplus
}
#endif

#endif
