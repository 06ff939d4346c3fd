"""RFC 9457 problem details: every error the host answers is one of these."""

import json

# code -> (status, title). The code is what clients switch on; the title is
# for people and never changes for a given code.
CATALOGUE = {
    "invalid_json": (400, "Request body is not valid JSON"),
    "invalid_field": (400, "A request field is missing or invalid"),
    "invalid_iban": (400, "IBAN is malformed"),
    "invalid_parameter": (400, "A query parameter is invalid"),
    "idempotency_key_missing": (400, "Idempotency-Key header is required"),
    "idempotency_key_malformed": (400, "Idempotency-Key is not a UUID"),
    "token_missing": (401, "Access token is missing"),
    "token_invalid": (401, "Access token is not valid"),
    "token_expired": (401, "Access token has expired"),
    "invalid_terminal_credentials": (401, "Terminal id or secret is wrong"),
    "refresh_token_invalid": (401, "Refresh token is not valid"),
    "refresh_token_expired": (401, "Refresh token has expired"),
    "pin_incorrect": (403, "Operator id or PIN is wrong"),
    "operator_disabled": (403, "Operator is disabled"),
    "admin_loopback_only": (403, "Admin endpoints answer loopback peers only"),
    "certificate_terminal_mismatch": (403, "Client certificate is for another terminal"),
    "rescue_signature_invalid": (403, "Rescue file signature does not match"),
    "rescue_terminal_unknown": (403, "Rescue file is of a terminal the bank cannot check"),
    "rescue_branch_mismatch": (403, "Rescue file is of another branch's terminal"),
    "not_found": (404, "No such resource"),
    "account_not_found": (404, "Account not found"),
    "transaction_not_found": (404, "No transaction with this key for this terminal"),
    "method_not_allowed": (405, "Method not allowed"),
    "request_in_progress": (409, "A request with this key is still being processed"),
    "length_required": (411, "Content-Length is required"),  # chunked or unreadable length
    "payload_too_large": (413, "Request body is too large"),
    "unsupported_media_type": (415, "Content-Type must be application/json"),
    "idempotency_key_reused": (422, "Idempotency-Key was used with a different body"),
    "too_many_requests": (429, "Too many requests"),
    "internal_error": (500, "Internal error"),
    "service_unavailable": (503, "Service unavailable"),
}

PROBLEM_TYPE_PREFIX = "urn:teller:problem:"


class Problem(Exception):
    """An error answer. Raised anywhere in a handler; rendered in one place."""

    def __init__(self, code, detail, field=None, retry_after=None, headers=None):
        super().__init__(detail)
        self.code = code
        self.status, self.title = CATALOGUE[code]
        self.detail = detail
        self.field = field
        self.retry_after = retry_after
        self.headers = dict(headers or {})
        self.terminal_id = None  # set when known, so counters can be kept per terminal

    def body(self, instance=None):
        doc = {
            "type": PROBLEM_TYPE_PREFIX + self.code,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
        }
        if self.field is not None:
            doc["field"] = self.field
        if instance is not None:
            doc["instance"] = instance
        return json.dumps(doc, separators=(",", ":")).encode()

    def response_headers(self):
        headers = {"Content-Type": "application/problem+json"}
        if self.retry_after is not None:
            headers["Retry-After"] = str(int(self.retry_after))
        headers.update(self.headers)
        return headers
