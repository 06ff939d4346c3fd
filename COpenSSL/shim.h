#ifndef TELLER_COPENSSL_SHIM_H
#define TELLER_COPENSSL_SHIM_H

// OpenSSL 3's libcrypto and libssl, for what libcurl does not do for Teller:
// reading certificates and keys (check-config, expiry warnings), making the
// terminal's key and its certificate signing request, and one CA store per
// process handed to every handshake. libcurl itself links the same library.

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/// A new P-256 key (EVP_EC_gen is a macro over a variadic function).
static inline EVP_PKEY *cossl_generate_p256(void) {
    return EVP_EC_gen("P-256");
}

/// The bytes a memory BIO holds (BIO_get_mem_data is a macro).
static inline long cossl_bio_bytes(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

#endif
