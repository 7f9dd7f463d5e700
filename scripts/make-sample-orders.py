#!/usr/bin/env python3
"""Makes the sample Wallet order archives in Tests/Golden/orders (issue 18), written for this project.

Each run makes a new test CA (root -> intermediate -> order-type certificates, as Apple's WWDR chain is shaped) and
signs with it, so the archives change bytes but not meaning; commit what it writes. Needs the openssl command (CMS
signing) and nothing else outside Python's standard library. Private keys live in a temporary folder and are
thrown away: nothing can sign another archive with this CA afterwards.

  scripts/make-sample-orders.py [OUTPUT_FOLDER]

Archives (`.order`: a zip of order.json, manifest.json with each file's SHA-256, signature = detached CMS of
manifest.json):
  greenleaf-v1.order       valid; Greenleaf Market groceries, 63.27 USD, placed 2026-03-01 (pays: the 2026-03-02
                           debit in feeds/ofx/creditcard-ofx2.qfx), updatedAt 2026-03-01T23:12:00Z
  greenleaf-v2.order       valid; the same order, newer (updatedAt 2026-03-03T14:00:00Z): delivered, with tracking
  nordic.order             valid; Nordic Outfitters, 129.00 EUR, no transaction pays it
  wrong-hash.order         order.json changed after the manifest was made (its hash no longer matches)
  tampered-manifest.order  order.json's total changed and manifest.json rewritten to match, old signature kept: only
                           the signature check catches it
  unlisted-file.order      a file in the archive that manifest.json does not list
  path-traversal.order     an entry named ../escape.txt
  zip-bomb.order           a 24 MiB file of zeros, about 24 KiB compressed
  lying-zip-bomb.order     the same, its zip headers declaring the file 1,000 bytes
  wrong-type.order         signed by the nordic type's certificate, but the order is of the greenleaf type
  untrusted.order          signed by a certificate of another CA
  not-a-zip.order          plain text
trust/test-root.pem        the test CA's root: the trust anchor the signed samples chain to
"""
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Tests", "Golden", "orders")
GREENLEAF = "order.com.example.greenleaf"
NORDIC = "order.com.example.nordic"


def run(*args, cwd):
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def make_ca(work):
    """root -> intermediate -> one certificate per order type; and a second, unrelated root with its own leaf."""
    def key(name):
        run("openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", f"{name}.key", cwd=work)

    def ext(name, text):
        with open(os.path.join(work, name), "w") as f:
            f.write(text)

    ext("ca.ext", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n")
    ext("leaf.ext", "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectKeyIdentifier=hash\n"
                    "authorityKeyIdentifier=keyid\n")
    ext("inter.ext", "basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n"
                     "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n")
    for root in ["root", "other-root"]:
        key(root)
        run("openssl", "req", "-x509", "-new", "-key", f"{root}.key", "-sha256", "-days", "36500",
            "-subj", f"/O=Coffer Test/CN=Coffer Test {root}", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", f"{root}.pem", cwd=work)

    def issue(name, subject, issuer, extfile):
        key(name)
        run("openssl", "req", "-new", "-key", f"{name}.key", "-subj", subject, "-out", f"{name}.csr", cwd=work)
        run("openssl", "x509", "-req", "-in", f"{name}.csr", "-CA", f"{issuer}.pem", "-CAkey", f"{issuer}.key",
            "-CAcreateserial", "-days", "36000", "-sha256", "-extfile", extfile, "-out", f"{name}.pem", cwd=work)

    issue("inter", "/O=Coffer Test/CN=Coffer Test Order Signing Intermediate", "root", "inter.ext")
    issue("greenleaf", f"/UID={GREENLEAF}/O=Coffer Test/CN=Order Type ID: {GREENLEAF}", "inter", "leaf.ext")
    issue("nordic", f"/UID={NORDIC}/O=Coffer Test/CN=Order Type ID: {NORDIC}", "inter", "leaf.ext")
    issue("stranger", f"/UID={GREENLEAF}/O=Someone Else/CN=Order Type ID: {GREENLEAF}", "other-root", "leaf.ext")


def sign(work, manifest, signer):
    path = os.path.join(work, "manifest.json")
    with open(path, "wb") as f:
        f.write(manifest)
    certfile = "inter.pem" if signer != "stranger" else "other-root.pem"
    run("openssl", "cms", "-sign", "-binary", "-md", "sha256", "-in", "manifest.json", "-signer", f"{signer}.pem",
        "-inkey", f"{signer}.key", "-certfile", certfile, "-outform", "DER", "-out", "signature", cwd=work)
    with open(os.path.join(work, "signature"), "rb") as f:
        return f.read()


def manifest_of(files):
    return json.dumps({name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())},
                      indent=2, sort_keys=True).encode() + b"\n"


def write_zip(name, entries):
    with zipfile.ZipFile(os.path.join(OUT, name), "w", zipfile.ZIP_DEFLATED) as z:
        for entry, data in entries:
            info = zipfile.ZipInfo(entry, date_time=(2026, 3, 1, 12, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


def lie_about_size(name, entry, size):
    """Rewrites the uncompressed size of `entry` in its local header and central directory record to `size`."""
    path = os.path.join(OUT, name)
    with open(path, "rb") as f:
        data = bytearray(f.read())
    encoded = entry.encode()
    at = 0
    while (at := data.find(b"PK\x03\x04", at)) != -1:
        length = struct.unpack_from("<H", data, at + 26)[0]
        if data[at + 30:at + 30 + length] == encoded:
            struct.pack_into("<I", data, at + 22, size)
        at += 4
    at = 0
    while (at := data.find(b"PK\x01\x02", at)) != -1:
        length = struct.unpack_from("<H", data, at + 28)[0]
        if data[at + 46:at + 46 + length] == encoded:
            struct.pack_into("<I", data, at + 24, size)
        at += 4
    with open(path, "wb") as f:
        f.write(data)


def order_json(order):
    return json.dumps(order, indent=2, ensure_ascii=False).encode() + b"\n"


def greenleaf(updated, status, fulfillment):
    return {
        "schemaVersion": 1,
        "orderTypeIdentifier": GREENLEAF,
        "orderIdentifier": "GL-2026-0301-7731",
        "orderNumber": "7731",
        "orderManagementURL": "https://greenleaf.example/orders/7731",
        "status": status,
        "createdAt": "2026-03-01T18:12:00-05:00",
        "updatedAt": updated,
        "merchant": {"merchantIdentifier": "merchant.example.greenleaf", "displayName": "Greenleaf Market",
                     "url": "https://greenleaf.example"},
        "lineItems": [
            {"title": "Organic oat milk", "subtitle": "1 l", "quantity": 4, "price": {"amount": "11.96", "currency": "USD"}},
            {"title": "Sourdough loaf", "quantity": 2, "price": {"amount": "13.00", "currency": "USD"}},
            {"title": "Coffee beans", "subtitle": "Ethiopia, 500 g", "quantity": 2, "price": {"amount": "31.98", "currency": "USD"}},
        ],
        "payment": {
            "status": "paid",
            "summaryItems": [
                {"label": "Subtotal", "value": {"amount": "56.94", "currency": "USD"}},
                {"label": "Delivery", "value": {"amount": "4.99", "currency": "USD"}},
                {"label": "Tax", "value": {"amount": 1.34, "currency": "USD"}},
            ],
            "total": {"amount": "63.27", "currency": "USD"},
            "paymentMethods": [{"displayName": "Harbor Card •••• 3333"}],
        },
        "fulfillments": [fulfillment],
    }


def main():
    os.makedirs(os.path.join(OUT, "trust"), exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        make_ca(work)
        with open(os.path.join(work, "root.pem"), "rb") as f, open(os.path.join(OUT, "trust", "test-root.pem"), "wb") as out:
            out.write(f.read())

        def archive(name, order, signer, extra=None, mutate=None):
            files = {"order.json": order_json(order)}
            files.update(extra or {})
            manifest = manifest_of(files)
            signature = sign(work, manifest, signer)
            if mutate:
                files, manifest = mutate(files, manifest)
            write_zip(name, [(k, v) for k, v in sorted(files.items())] + [("manifest.json", manifest), ("signature", signature)])

        v1 = greenleaf("2026-03-01T23:12:00Z", "open",
                       {"fulfillmentType": "shipping", "fulfillmentIdentifier": "D1", "status": "processing"})
        v2 = greenleaf("2026-03-03T14:00:00Z", "completed",
                       {"fulfillmentType": "shipping", "fulfillmentIdentifier": "D1", "status": "delivered",
                        "carrier": "Harbor Couriers", "trackingNumber": "HC123456789US",
                        "trackingURL": "https://couriers.example/track/HC123456789US",
                        "deliveredAt": "2026-03-03T13:40:00Z"})
        nordic = {
            "schemaVersion": 1, "orderTypeIdentifier": NORDIC, "orderIdentifier": "NO-88412", "status": "open",
            "orderManagementURL": "https://nordic.example/account/orders/NO-88412",
            "createdAt": "2026-03-10T09:30:00+01:00", "updatedAt": "2026-03-10T09:30:00+01:00",
            "merchant": {"displayName": "Nordic Outfitters"},
            "lineItems": [{"title": "Wool hiking socks", "quantity": 3, "price": {"amount": "39.00", "currency": "EUR"}},
                          {"title": "Rain shell", "price": {"amount": "90.00", "currency": "EUR"}}],
            "payment": {"total": {"amount": "129.00", "currency": "EUR"}},
            "fulfillments": [{"fulfillmentType": "shipping", "status": "onTheWay", "carrier": "Fjord Post",
                              "trackingNumber": "FP-20260311-0042", "estimatedDeliveryAt": "2026-03-14T12:00:00Z"}],
        }
        archive("greenleaf-v1.order", v1, "greenleaf")
        archive("greenleaf-v2.order", v2, "greenleaf")
        archive("nordic.order", nordic, "nordic")

        def change_order(files, manifest):
            files = dict(files)
            files["order.json"] = files["order.json"].replace(b"63.27", b"6.27")
            return files, manifest
        archive("wrong-hash.order", v1, "greenleaf", mutate=change_order)

        def change_order_and_manifest(files, manifest):
            files, _ = change_order(files, manifest)
            return files, manifest_of(files)
        archive("tampered-manifest.order", v1, "greenleaf", mutate=change_order_and_manifest)

        def add_unlisted(files, manifest):
            return {**files, "notes.txt": b"not in the manifest\n"}, manifest
        archive("unlisted-file.order", v1, "greenleaf", mutate=add_unlisted)

        def add_escape(files, manifest):
            return {**files, "../escape.txt": b"outside\n"}, manifest
        archive("path-traversal.order", v1, "greenleaf", mutate=add_escape)

        archive("zip-bomb.order", v1, "greenleaf", extra={"padding.bin": bytes(24 << 20)})
        archive("lying-zip-bomb.order", v1, "greenleaf", extra={"padding.bin": bytes(24 << 20)})
        lie_about_size("lying-zip-bomb.order", "padding.bin", 1000)
        archive("wrong-type.order", v1, "nordic")
        archive("untrusted.order", v1, "stranger")
    with open(os.path.join(OUT, "not-a-zip.order"), "w") as f:
        f.write("this is not a zip archive\n")


if __name__ == "__main__":
    main()
