#ifndef SCOREBOARD_MQTT_H
#define SCOREBOARD_MQTT_H

// An MQTT client on a thread of its own. libmosquitto resolves the broker's name and
// connects on the calling thread, which can take seconds; here a worker thread does
// that and reads from the broker, and the daemon's poll loop only watches an eventfd,
// takes the client's events from a locked queue and publishes. Publishing never waits
// for the network, nor for the worker: without TLS it writes the packet to the
// (non-blocking) socket on the calling thread when the worker is not using the
// connection, leaving what does not fit to the worker, and otherwise leaves the whole
// publication to the worker, which sends it in order; with TLS it queues the packet for
// the worker.
//
// The worker connects, runs until the connection ends, waits (1 s, doubling to 60 s,
// back to 1 s after a connection the broker accepted) and connects again, resolving
// the name again, until sbm_client_stop. Each connection has a libmosquitto client of
// its own: what an earlier one had not delivered is dropped, never sent late. Every
// connection attempt and its end are events, with libmosquitto's reason in words and
// the errors it logged meanwhile (OpenSSL's among them).

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sbm_client sbm_client;

/// The largest MQTT packet the client takes, announced to the broker on CONNECT (MQTT
/// 5's Maximum Packet Size): the broker drops larger messages instead of sending them.
#define SBM_MAXIMUM_PACKET_SIZE 131072
/// The largest payload taken; a larger one that arrives all the same (a broker that
/// ignores the announced limit) is an SBM_REFUSED event, never queued.
#define SBM_MAXIMUM_PAYLOAD 131072

/// How to reach the broker; the strings are copied by sbm_client_new.
typedef struct {
  const char *host;
  int port;
  const char *client_id;
  /// NULL: no user name.
  const char *username;
  /// NULL: no password.
  const char *password;
  /// 1: TLS. With ca_file NULL, the system's certificate folder (/etc/ssl/certs).
  int tls;
  const char *ca_file;
  int keepalive_seconds;
  /// Published by the broker when the connection is lost without a DISCONNECT.
  const char *will_topic;
  const char *will_payload;
  int will_qos;
  int will_retain;
} sbm_options;

/// What happened to the client.
typedef enum {
  /// The broker accepted the connection; the subscriptions are renewed.
  SBM_CONNECTED = 1,
  /// A connection attempt failed, or the broker refused it, or a connection ended;
  /// `text` says why. The worker tries again after its back-off.
  SBM_DISCONNECTED = 2,
  /// A message arrived on a subscribed topic.
  SBM_MESSAGE = 3,
  /// A message larger than SBM_MAXIMUM_PAYLOAD arrived and was dropped: `topic` and
  /// `payload_length` (its size) say which; `payload` is NULL.
  SBM_REFUSED = 4,
} sbm_event_kind;

/// One event; free its buffers with sbm_event_free.
typedef struct {
  sbm_event_kind kind;
  /// The reason code (MQTT 5 reason or libmosquitto error), 0 if none.
  int code;
  /// Words for people (reasons, log lines); NULL if none.
  char *text;
  char *topic;
  uint8_t *payload;
  size_t payload_length;
  /// MQTT 5 response topic and correlation data of a message; NULL if none.
  char *response_topic;
  uint8_t *correlation;
  size_t correlation_length;
  /// The message had the retain flag: the broker kept it from before.
  int retained;
  /// The QoS the message was delivered with.
  int qos;
} sbm_event;

/// A client that is not running yet; NULL with errno set (ENOMEM, EINVAL for bad
/// options, ENOENT when libmosquitto cannot be loaded) and *error_text naming the
/// problem (static text). The first call loads libmosquitto (dlopen).
sbm_client *sbm_client_new(const sbm_options *options, const char **error_text);

/// Starts the worker thread. 0, or an errno value.
int sbm_client_start(sbm_client *client);

/// The eventfd that is readable while events wait.
int sbm_client_event_fd(const sbm_client *client);

/// Takes the next event into *event: 1, or 0 when none is left (the eventfd is then
/// drained).
int sbm_client_next_event(sbm_client *client, sbm_event *event);

void sbm_event_free(sbm_event *event);

/// Subscribes to `topic` now if connected, and after every reconnection; with
/// `retain_as_published` 1, live messages keep the retain flag they were published with
/// (MQTT 5's Retain As Published). 0, or a libmosquitto error code.
int sbm_client_subscribe(sbm_client *client, const char *topic, int qos,
                         int retain_as_published);

/// Publishes one message; response_topic and correlation may be NULL. Returns 0, or a
/// libmosquitto error code (MOSQ_ERR_NO_CONN when not connected; MOSQ_ERR_NOMEM when
/// 4 MiB of publications already wait for the worker).
int sbm_client_publish(sbm_client *client, const char *topic, const void *payload,
                       size_t payload_length, int qos, int retain, const char *response_topic,
                       const void *correlation, size_t correlation_length);

/// The version of the libmosquitto in use, such as 2.0.11, into `text`; or "not
/// loaded: " and why.
void sbm_library_version(char *text, size_t size);

/// Disconnects (asking the broker to publish the will all the same), stops the worker
/// and frees the client. A worker stuck in name resolution is waited for up to
/// `wait_milliseconds`; after that it is left to finish by itself (and frees the
/// client then).
void sbm_client_stop(sbm_client *client, int wait_milliseconds);

#ifdef __cplusplus
}
#endif

#endif
