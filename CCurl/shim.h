#ifndef TELLER_CCURL_SHIM_H
#define TELLER_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call; these typed wrappers are the only way HostTransport reaches them.

/// curl_easy_setopt for a long option (timeouts, flags, versions).
static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for a 64-bit size option (CURLOPT_MAXFILESIZE_LARGE).
static inline CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for a string, list or user-data pointer.
static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// The data callback shape of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);

/// curl_easy_setopt for CURLOPT_WRITEFUNCTION / CURLOPT_HEADERFUNCTION.
static inline CURLcode ccurl_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// The shape of CURLOPT_PREREQFUNCTION: called once the connection (and its
/// TLS handshake) is up, just before the request is sent.
typedef int (*ccurl_prereq_callback)(void *context, char *primary_ip, char *local_ip, int primary_port, int local_port);

/// curl_easy_setopt for CURLOPT_PREREQFUNCTION.
static inline CURLcode ccurl_setopt_prereq_callback(CURL *handle, ccurl_prereq_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
}

/// The shape of CURLOPT_SSL_CTX_FUNCTION: the TLS library's context (an
/// OpenSSL SSL_CTX) before the handshake.
typedef CURLcode (*ccurl_ssl_context_callback)(CURL *handle, void *ssl_context, void *context);

/// curl_easy_setopt for CURLOPT_SSL_CTX_FUNCTION.
static inline CURLcode ccurl_setopt_ssl_context_callback(CURL *handle, ccurl_ssl_context_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, callback);
}

/// curl_easy_getinfo for a long answer (CURLINFO_RESPONSE_CODE).
static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo for a string answer (CURLINFO_CONTENT_TYPE, CURLINFO_REDIRECT_URL).
static inline CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo for CURLINFO_CERTINFO.
static inline CURLcode ccurl_getinfo_certinfo(CURL *handle, struct curl_certinfo **value) {
    return curl_easy_getinfo(handle, CURLINFO_CERTINFO, value);
}

/// The easy handle a finished CURLMsg is about (a union member Swift sees awkwardly).
static inline CURLcode ccurl_message_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
