"""Verifies a webhook delivery of the service with Python's standard library alone.

The same check as the `standardwebhooks` package (pip install standardwebhooks), for receivers that
cannot add a dependency. Verify the raw body, before parsing it.

    from verify_webhook import verify, WebhookVerificationError
    event = verify(os.environ["WEBHOOK_SECRET"], request.headers, request.get_data())

Run as a script, it reads the body on standard input and the headers from its arguments, prints the
event and exits 0 when the delivery is genuine, and exits 1 otherwise:

    python3 verify_webhook.py "$WEBHOOK_SECRET" "$WEBHOOK_ID" "$WEBHOOK_TIMESTAMP" "$WEBHOOK_SIGNATURE" < body.json
"""

import base64
import hashlib
import hmac
import json
import sys
import time

TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    pass


def verify(secret, headers, body, now=None):
    """Returns the event when the signature and timestamp are good; raises WebhookVerificationError."""
    lower = {k.lower(): v for k, v in dict(headers).items()}
    try:
        msg_id = lower["webhook-id"]
        timestamp = int(lower["webhook-timestamp"])
        signatures = lower["webhook-signature"]
    except (KeyError, ValueError):
        raise WebhookVerificationError("missing or malformed webhook headers")
    if abs((now if now is not None else time.time()) - timestamp) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("timestamp outside the tolerance: a replay, or a skewed clock")
    raw = body if isinstance(body, bytes) else body.encode("utf-8")
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    signed = f"{msg_id}.{timestamp}.".encode("utf-8") + raw
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode("ascii")
    # During a secret rotation the header holds several space-separated signatures: one must match.
    for candidate in signatures.split(" "):
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            return json.loads(raw)
    raise WebhookVerificationError("no signature matches")


if __name__ == "__main__":
    secret, msg_id, timestamp, signature = sys.argv[1:5]
    headers = {"webhook-id": msg_id, "webhook-timestamp": timestamp, "webhook-signature": signature}
    try:
        print(json.dumps(verify(secret, headers, sys.stdin.buffer.read())))
    except WebhookVerificationError as error:
        print(f"rejected: {error}", file=sys.stderr)
        sys.exit(1)
