"""Records `serve`'s replies to a fixed set of requests, so that two builds can be compared byte for byte.

    python record_replies.py SERVE_BINARY OUTPUT_FILE

    # before a change, with today's serve; after it, with the new one; then:
    swift build --product serve && cp .build/debug/serve /tmp/serve-after
    .venv-interop/bin/python Tests/InteropTests/python/record_replies.py /tmp/serve-before /tmp/before.txt
    .venv-interop/bin/python Tests/InteropTests/python/record_replies.py /tmp/serve-after /tmp/after.txt
    diff /tmp/before.txt /tmp/after.txt     # empty: no reply changed

The script starts SERVE_BINARY twice on free ports, each on a new store in a temporary directory: once
plain, once with `--faults` for the 503 and 500 it injects. It sends each request with Python's own
HTTP client (not an SDK, so that every request is exactly the same each run), signed with the
development account's key (Table and Blob Shared Key, computed here) or carrying a SAS made with the
SDKs' `generate_*_sas` (fixed times, so the tokens are the same each run). The SDKs are those of
requirements.txt; run it with the interop venv's python.

Each reply is written as its status line, its headers sorted by name (as spelled) and its body, with
what changes from run to run masked: request ids, dates and times, ETags, GUIDs (batch boundaries),
the ports, and a Content-Length that is the body's (times in a body vary in length). The requests
cover the Table service in JSON at each metadata level and in Atom, and the Blob service:
successes, and above all the refusals (missing tables, entities, containers and blobs, duplicates,
bad keys, bad filters, failed batches, 413, 415, 416, 405, 501, anonymous and bad credentials).
"""

import base64
import hashlib
import hmac
import http.client
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse
from datetime import datetime, timezone
from email.utils import formatdate

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
SAS_START = datetime(2020, 1, 1, tzinfo=timezone.utc)
SAS_EXPIRY = datetime(2099, 1, 1, tzinfo=timezone.utc)


def sign(string_to_sign):
    digest = hmac.new(base64.b64decode(KEY), string_to_sign.encode("utf-8"), hashlib.sha256).digest()
    return base64.b64encode(digest).decode()


def table_authorization(method, path, query, headers):
    """Table SharedKey: VERB, Content-MD5, Content-Type, Date, /account/path[?comp=…]."""
    comp = dict(urllib.parse.parse_qsl(query)).get("comp")
    resource = f"/{ACCOUNT}{path}" + (f"?comp={comp}" if comp else "")
    lowered = {name.lower(): value for name, value in headers.items()}
    text = "\n".join([method, lowered.get("content-md5", ""), lowered.get("content-type", ""), lowered.get("x-ms-date", ""), resource])
    return f"SharedKey {ACCOUNT}:{sign(text)}"


def blob_authorization(method, path, query, headers):
    """Blob SharedKey (2015-02-21 and later)."""
    lowered = {name.lower(): value for name, value in headers.items()}
    lines = [method]
    for name in ["content-encoding", "content-language", "content-length", "content-md5", "content-type", "date",
                 "if-modified-since", "if-match", "if-none-match", "if-unmodified-since", "range"]:
        value = lowered.get(name, "")
        lines.append("" if name == "content-length" and value == "0" else value)
    canonical = "".join(f"{name}:{lowered[name].strip()}\n" for name in sorted(n for n in lowered if n.startswith("x-ms-")))
    resource = f"/{ACCOUNT}{path}"
    values = {}
    for name, value in urllib.parse.parse_qsl(query, keep_blank_values=True):
        values.setdefault(name.lower(), []).append(value)
    for name in sorted(values):
        resource += f"\n{name}:{','.join(sorted(values[name]))}"
    return f"SharedKey {ACCOUNT}:{sign(chr(10).join(lines) + chr(10) + canonical + resource)}"


class Recorder:
    def __init__(self, out):
        self.out = out
        self.ports = {}

    def send(self, name, service, method, path, query="", headers=None, body=b"", auth="key"):
        """One request; `auth` is "key", "none", or a function of the headers that returns them signed."""
        headers = dict(headers or {})
        headers.setdefault("x-ms-date", formatdate(usegmt=True))
        headers.setdefault("x-ms-version", "2019-02-02" if service == "table" else "2021-12-02")
        if body or method in ("PUT", "POST", "MERGE"):
            headers["Content-Length"] = str(len(body))
        if auth == "key":
            signer = table_authorization if service == "table" else blob_authorization
            headers["Authorization"] = signer(method, path, query, headers)
        elif callable(auth):
            headers = auth(headers)
        connection = http.client.HTTPConnection("127.0.0.1", self.ports[service], timeout=120)
        try:
            connection.putrequest(method, path + ("?" + query if query else ""), skip_accept_encoding=True)
            for header, value in headers.items():
                connection.putheader(header, value)
            connection.endheaders()
            try:
                if body:
                    connection.send(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # The server answered before reading the whole body (413); its reply is read below.
            reply = connection.getresponse()
            data = reply.read()
            self.write(name, method, path, query, f"{reply.status} {reply.reason}", reply.getheaders(), data)
        finally:
            connection.close()

    def write(self, name, method, path, query, status, headers, body):
        self.out.write(f"### {name}\n{method} {path}{'?' + query if query else ''}\n{status}\n")
        # Sorted by name, each as the server spelled it.
        for header, value in sorted(headers, key=lambda field: (field[0].lower(), field[1])):
            # Times in a body vary in length (trailing zeros of the fraction are not written).
            if header.lower() == "content-length" and value == str(len(body)):
                value = "<the body's length>"
            self.out.write(f"{header}: {self.mask(header.lower(), value)}\n")
        self.out.write("\n")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = "<bytes> " + body.hex()
        self.out.write(self.mask("", text) + "\n\n")

    def mask(self, header, text):
        if header in ("x-ms-request-id", "date", "etag", "last-modified", "x-ms-creation-time"):
            return f"<{header}>"
        for port in self.ports.values():
            text = text.replace(f":{port}/", ":<port>/")
        text = re.sub(r"RequestId:[0-9a-fA-F-]+", "RequestId:<id>", text)
        text = re.sub(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", "<guid>", text)
        text = re.sub(r"\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT", "<http-date>", text)
        text = re.sub(r"datetime'[^']*'", "datetime'<time>'", text)
        text = re.sub(r"\d{4}-\d{2}-\d{2}T\d{2}(:|%3A)\d{2}(:|%3A)\d{2}(\.\d+)?Z", "<time>", text)
        text = re.sub(r"0x[0-9A-F]{12,}", "<etag>", text)
        return text


def start(binary, store, extra):
    process = subprocess.Popen([binary, "--store", store, "--table-port", "0", "--blob-port", "0", "--ui-port", "0", "--quiet"] + extra,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ports = {}
    while len(ports) < 2:
        line = process.stdout.readline()
        if not line:
            raise SystemExit(f"serve stopped: {process.stderr.read()}")
        service, url = line.split()
        ports[service] = urllib.parse.urlsplit(url).port
    return process, ports


def table_sas(table, permission):
    from azure.core.credentials import AzureNamedKeyCredential
    from azure.data.tables import TableSasPermissions, generate_table_sas
    return generate_table_sas(AzureNamedKeyCredential(ACCOUNT, KEY), table, permission=TableSasPermissions.from_string(permission),
                              expiry=SAS_EXPIRY, start=SAS_START)


def blob_sas(container, blob, permission):
    from azure.storage.blob import BlobSasPermissions, generate_blob_sas
    return generate_blob_sas(ACCOUNT, container, blob, account_key=KEY, permission=BlobSasPermissions.from_string(permission),
                             expiry=SAS_EXPIRY, start=SAS_START)


FORMATS = {
    "nometadata": {"Accept": "application/json;odata=nometadata"},
    "minimalmetadata": {"Accept": "application/json;odata=minimalmetadata"},
    "fullmetadata": {"Accept": "application/json;odata=fullmetadata"},
    "atom": {"Accept": "application/atom+xml"},
    "atom-default": {"x-ms-version": "2013-08-15"},
}


def batch_body(table, operations, port):
    """A $batch body of one changeset; `operations` are (method, resource, json_body or None)."""
    lines = ["--batch_B", "Content-Type: multipart/mixed; boundary=changeset_C", ""]
    for index, (method, resource, body) in enumerate(operations):
        lines += ["--changeset_C", "Content-Type: application/http", "Content-Transfer-Encoding: binary", "",
                  f"{method} http://127.0.0.1:{port}/{ACCOUNT}/{resource} HTTP/1.1", f"Content-ID: {index + 1}",
                  "Accept: application/json;odata=minimalmetadata", "DataServiceVersion: 3.0;"]
        if method == "DELETE":
            lines.append("If-Match: *")
        if body is not None:
            lines += ["Content-Type: application/json", "", body]
        else:
            lines += [""]
    lines += ["--changeset_C--", "--batch_B--", ""]
    return "\r\n".join(lines).encode()


def query_text(parameters):
    """A query as the SDKs send it: spaces as %20, not +."""
    return urllib.parse.urlencode(parameters, quote_via=urllib.parse.quote)


def tables(r):
    t = f"/{ACCOUNT}"
    json_type = {"Content-Type": "application/json"}
    for label, accept in FORMATS.items():
        name = "tbl" + label.replace("-", "")
        atom = label.startswith("atom")
        if atom:
            create_body = (f'<?xml version="1.0" encoding="utf-8"?><entry xmlns="http://www.w3.org/2005/Atom" '
                           f'xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" '
                           f'xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><content type="application/xml">'
                           f'<m:properties><d:TableName>{name}</d:TableName></m:properties></content></entry>').encode()
            body_type = {"Content-Type": "application/atom+xml"}
        else:
            create_body = f'{{"TableName":"{name}"}}'.encode()
            body_type = json_type
        h = {**accept}
        r.send(f"{label}: create table", "table", "POST", f"{t}/Tables", headers={**h, **body_type}, body=create_body)
        r.send(f"{label}: create table again", "table", "POST", f"{t}/Tables", headers={**h, **body_type}, body=create_body)
        r.send(f"{label}: create table with a bad name", "table", "POST", f"{t}/Tables", headers={**h, **json_type}, body=b'{"TableName":"1bad"}')
        r.send(f"{label}: query tables with a filter", "table", "GET", f"{t}/Tables", query=query_text({"$filter": f"TableName eq '{name}'"}), headers=h)
        r.send(f"{label}: query tables with a bad filter", "table", "GET", f"{t}/Tables", query=query_text({"$filter": "TableName eq"}), headers=h)
        r.send(f"{label}: query tables with a function", "table", "GET", f"{t}/Tables", query=query_text({"$filter": "startswith(TableName,'a')"}), headers=h)
        r.send(f"{label}: query a missing table", "table", "GET", f"{t}/nosuch()", headers=h)
        r.send(f"{label}: get from a missing table", "table", "GET", f"{t}/nosuch(PartitionKey='p',RowKey='r')", headers=h)
        r.send(f"{label}: get a missing entity", "table", "GET", f"{t}/{name}(PartitionKey='p',RowKey='none')", headers=h)
        entity = b'{"PartitionKey":"p","RowKey":"r1","Name":"Ada","Age":36,"Age@odata.type":"Edm.Int64"}'
        r.send(f"{label}: insert", "table", "POST", f"{t}/{name}", headers={**h, **json_type}, body=entity)
        r.send(f"{label}: insert again", "table", "POST", f"{t}/{name}", headers={**h, **json_type}, body=entity)
        r.send(f"{label}: insert into a missing table", "table", "POST", f"{t}/nosuch", headers={**h, **json_type}, body=entity)
        r.send(f"{label}: insert without RowKey", "table", "POST", f"{t}/{name}", headers={**h, **json_type}, body=b'{"PartitionKey":"p"}')
        r.send(f"{label}: insert a key with /", "table", "POST", f"{t}/{name}", headers={**h, **json_type}, body=b'{"PartitionKey":"p/q","RowKey":"r"}')
        r.send(f"{label}: insert a bad value", "table", "POST", f"{t}/{name}", headers={**h, **json_type},
               body=b'{"PartitionKey":"p","RowKey":"r9","N":"x","N@odata.type":"Edm.Int32"}')
        r.send(f"{label}: insert broken JSON", "table", "POST", f"{t}/{name}", headers={**h, **json_type}, body=b'{"PartitionKey":')
        r.send(f"{label}: get the entity", "table", "GET", f"{t}/{name}(PartitionKey='p',RowKey='r1')", headers=h)
        r.send(f"{label}: query with a filter", "table", "GET", f"{t}/{name}()", query=query_text({"$filter": "Age gt 30L", "$select": "Name"}), headers=h)
        r.send(f"{label}: query on keys", "table", "GET", f"{t}/{name}()", query=query_text({"$filter": "PartitionKey eq 'p'"}), headers=h)
        r.send(f"{label}: query with a bad filter", "table", "GET", f"{t}/{name}()", query=query_text({"$filter": "Age gt"}), headers=h)
        r.send(f"{label}: query with a bad literal", "table", "GET", f"{t}/{name}()", query=query_text({"$filter": "Age eq 2147483648"}), headers=h)
        r.send(f"{label}: query with $top=0", "table", "GET", f"{t}/{name}()", query="$top=0", headers=h)
        r.send(f"{label}: query with an undecodable query", "table", "GET", f"{t}/{name}()", query="NextPartitionKey=%%%", headers=h)
        r.send(f"{label}: query with a bad continuation", "table", "GET", f"{t}/{name}()", query="NextPartitionKey=p&NextRowKey=%FF", headers=h)
        r.send(f"{label}: update with a stale If-Match", "table", "PUT", f"{t}/{name}(PartitionKey='p',RowKey='r1')",
               headers={**h, **json_type, "If-Match": "W/\"datetime'2020-01-01T00%3A00%3A00.0000000Z'\""}, body=b'{"Name":"Bea"}')
        r.send(f"{label}: merge into a missing entity", "table", "MERGE", f"{t}/{name}(PartitionKey='p',RowKey='none')",
               headers={**h, **json_type, "If-Match": "*"}, body=b'{"Name":"Bea"}')
        r.send(f"{label}: delete without If-Match", "table", "DELETE", f"{t}/{name}(PartitionKey='p',RowKey='r1')", headers=h)
        r.send(f"{label}: delete a missing entity", "table", "DELETE", f"{t}/{name}(PartitionKey='p',RowKey='none')", headers={**h, "If-Match": "*"})
        r.send(f"{label}: an unsupported method", "table", "PATCH", f"{t}/Tables", headers=h)
        port = r.ports["table"]
        batch_type = {"Content-Type": "multipart/mixed; boundary=batch_B"}
        r.send(f"{label}: batch with a duplicate", "table", "POST", f"{t}/$batch", headers={**h, **batch_type}, body=batch_body(name, [
            ("POST", name, '{"PartitionKey":"p","RowKey":"b1"}'), ("POST", name, '{"PartitionKey":"p","RowKey":"r1"}')], port))
        r.send(f"{label}: batch over two partitions", "table", "POST", f"{t}/$batch", headers={**h, **batch_type}, body=batch_body(name, [
            ("POST", name, '{"PartitionKey":"p","RowKey":"b1"}'), ("POST", name, '{"PartitionKey":"q","RowKey":"b2"}')], port))
        r.send(f"{label}: batch into a missing table", "table", "POST", f"{t}/$batch", headers={**h, **batch_type}, body=batch_body("nosuch", [
            ("POST", "nosuch", '{"PartitionKey":"p","RowKey":"b1"}')], port))
        r.send(f"{label}: batch that succeeds", "table", "POST", f"{t}/$batch", headers={**h, **batch_type}, body=batch_body(name, [
            ("POST", name, '{"PartitionKey":"p","RowKey":"b3"}'), ("DELETE", f"{name}(PartitionKey='p',RowKey='b1')", None)], port))
        r.send(f"{label}: batch with a repeated row", "table", "POST", f"{t}/$batch", headers={**h, **batch_type}, body=batch_body(name, [
            ("POST", name, '{"PartitionKey":"p","RowKey":"b5"}'), ("DELETE", f"{name}(PartitionKey='p',RowKey='b5')", None)], port))
        r.send(f"{label}: batch without a boundary", "table", "POST", f"{t}/$batch", headers={**h, "Content-Type": "multipart/mixed"}, body=b"x")
        r.send(f"{label}: batch over 4 MiB", "table", "POST", f"{t}/$batch", headers={**h, **batch_type}, body=b"x" * ((4 << 20) + 1))
        r.send(f"{label}: no credentials", "table", "GET", f"{t}/Tables", headers=h, auth="none")
        r.send(f"{label}: a wrong signature", "table", "GET", f"{t}/Tables", headers={**h, "Authorization": f"SharedKey {ACCOUNT}:AAAA{sign('x')[4:]}"}, auth="none")
        r.send(f"{label}: a malformed Authorization", "table", "GET", f"{t}/Tables", headers={**h, "Authorization": "Bearer nothing"}, auth="none")
        r.send(f"{label}: a SAS with a bad signature", "table", "GET", f"{t}/{name}()", query=re.sub(r"sig=[^&]*", "sig=AAAA", table_sas(name, "r")), headers=h, auth="none")
        r.send(f"{label}: a read SAS that inserts", "table", "POST", f"{t}/{name}", query=table_sas(name, "r"), headers={**h, **json_type},
               body=b'{"PartitionKey":"p","RowKey":"sas"}', auth="none")
        r.send(f"{label}: a SAS for another table", "table", "GET", f"{t}/nosuch()", query=table_sas(name, "r"), headers=h, auth="none")
        r.send(f"{label}: a read SAS that reads", "table", "GET", f"{t}/{name}(PartitionKey='p',RowKey='r1')", query=table_sas(name, "r"), headers=h, auth="none")
        r.send(f"{label}: an unknown account", "table", "GET", "/otheraccount/Tables", headers=h)
        r.send(f"{label}: a path with ..", "table", "GET", f"{t}/a/../Tables", headers=h)
        r.send(f"{label}: a bad resource path", "table", "GET", f"{t}/Tables('x", headers=h)
        r.send(f"{label}: delete the table", "table", "DELETE", f"{t}/Tables('{name}')", headers=h)
        r.send(f"{label}: delete it again", "table", "DELETE", f"{t}/Tables('{name}')", headers=h)
    r.send("JSON with a version before JSON", "table", "GET", f"{t}/Tables", headers={"Accept": "application/json", "x-ms-version": "2012-02-12"})
    r.send("JSON body with a version before JSON", "table", "POST", f"{t}/Tables", headers={"x-ms-version": "2012-02-12", **json_type}, body=b'{"TableName":"old"}')
    r.send("query tables, the alias", "table", "GET", "/speakeasy/Tables", headers=FORMATS["minimalmetadata"])


def blobs(r):
    b = f"/{ACCOUNT}"
    block = {"x-ms-blob-type": "BlockBlob", "Content-Type": "image/jpeg"}
    photo = bytes(range(256)) * 3
    r.send("create a container", "blob", "PUT", f"{b}/photos", query="restype=container")
    r.send("create it again", "blob", "PUT", f"{b}/photos", query="restype=container")
    r.send("create a public container", "blob", "PUT", f"{b}/public", query="restype=container", headers={"x-ms-blob-public-access": "blob"})
    r.send("create with a bad access level", "blob", "PUT", f"{b}/other", query="restype=container", headers={"x-ms-blob-public-access": "everyone"})
    r.send("create with a bad name", "blob", "PUT", f"{b}/Bad--Name", query="restype=container")
    r.send("container properties", "blob", "GET", f"{b}/photos", query="restype=container")
    r.send("missing container properties", "blob", "GET", f"{b}/nosuch", query="restype=container")
    r.send("container ACL", "blob", "GET", f"{b}/photos", query="restype=container&comp=acl")
    r.send("list containers", "blob", "GET", f"{b}/", query="comp=list")
    r.send("list containers, maxresults=0", "blob", "GET", f"{b}/", query="comp=list&maxresults=0")
    r.send("put a blob", "blob", "PUT", f"{b}/photos/ada.jpg", headers=block, body=photo)
    r.send("put a public blob", "blob", "PUT", f"{b}/public/ada.jpg", headers=block, body=photo)
    r.send("put into a missing container", "blob", "PUT", f"{b}/nosuch/ada.jpg", headers=block, body=photo)
    r.send("put without x-ms-blob-type", "blob", "PUT", f"{b}/photos/x.jpg", headers={"Content-Type": "image/jpeg"}, body=photo)
    r.send("put a page blob", "blob", "PUT", f"{b}/photos/x.jpg", headers={"x-ms-blob-type": "PageBlob"}, body=b"")
    r.send("put with a bad MD5", "blob", "PUT", f"{b}/photos/x.jpg", headers={**block, "Content-MD5": "not md5"}, body=photo)
    r.send("put with a wrong MD5", "blob", "PUT", f"{b}/photos/x.jpg", headers={**block, "Content-MD5": "hQ7qIQogQ+FI+RDY/b6J8A=="}, body=photo)
    r.send("put with If-None-Match *", "blob", "PUT", f"{b}/photos/ada.jpg", headers={**block, "If-None-Match": "*"}, body=photo)
    r.send("put with a bad date condition", "blob", "PUT", f"{b}/photos/ada.jpg", headers={**block, "If-Modified-Since": "yesterday"}, body=photo)
    r.send("put a block with an undecodable id", "blob", "PUT", f"{b}/photos/big.bin", query="comp=block&blockid=%%", body=b"abc")
    r.send("put a block with a bad id", "blob", "PUT", f"{b}/photos/big.bin", query="comp=block&blockid=!!!!", body=b"abc")
    r.send("put a block", "blob", "PUT", f"{b}/photos/big.bin", query="comp=block&blockid=QUFBQQ%3D%3D", body=b"abc")
    r.send("a block list that is not XML", "blob", "PUT", f"{b}/photos/big.bin", query="comp=blocklist", body=b"<BlockList><Latest>")
    r.send("a block list of another root", "blob", "PUT", f"{b}/photos/big.bin", query="comp=blocklist", body=b"<Blocks/>")
    r.send("a block list naming a missing block", "blob", "PUT", f"{b}/photos/big.bin", query="comp=blocklist", body=b"<BlockList><Latest>QkJCQg==</Latest></BlockList>")
    r.send("a block list", "blob", "PUT", f"{b}/photos/big.bin", query="comp=blocklist", body=b"<BlockList><Latest>QUFBQQ==</Latest></BlockList>")
    r.send("get the blob", "blob", "GET", f"{b}/photos/ada.jpg")
    r.send("head the blob", "blob", "HEAD", f"{b}/photos/ada.jpg")
    r.send("get a range", "blob", "GET", f"{b}/photos/ada.jpg", headers={"x-ms-range": "bytes=10-19"})
    r.send("get a range past the end", "blob", "GET", f"{b}/photos/ada.jpg", headers={"x-ms-range": "bytes=5000-5010"})
    r.send("head a range past the end", "blob", "HEAD", f"{b}/photos/ada.jpg", headers={"x-ms-range": "bytes=5000-5010"})
    r.send("get a missing blob", "blob", "GET", f"{b}/photos/none.jpg")
    r.send("head a missing blob", "blob", "HEAD", f"{b}/photos/none.jpg")
    r.send("get from a missing container", "blob", "GET", f"{b}/nosuch/none.jpg")
    r.send("get with a stale If-Match", "blob", "GET", f"{b}/photos/ada.jpg", headers={"If-Match": "\"0x8D000000000000\""})
    r.send("get if modified since 2099", "blob", "GET", f"{b}/photos/ada.jpg", headers={"If-Modified-Since": "Thu, 01 Jan 2099 00:00:00 GMT"})
    r.send("list blobs", "blob", "GET", f"{b}/photos", query="restype=container&comp=list")
    r.send("list blobs of a missing container", "blob", "GET", f"{b}/nosuch", query="restype=container&comp=list")
    r.send("list blobs, maxresults=x", "blob", "GET", f"{b}/photos", query="restype=container&comp=list&maxresults=x")
    r.send("anonymous get of a private blob", "blob", "GET", f"{b}/photos/ada.jpg", auth="none")
    r.send("anonymous get of a public blob", "blob", "GET", f"{b}/public/ada.jpg", auth="none")
    r.send("anonymous list of a blob-public container", "blob", "GET", f"{b}/public", query="restype=container&comp=list", auth="none")
    r.send("anonymous get of a missing blob", "blob", "GET", f"{b}/public/none.jpg", auth="none")
    r.send("anonymous put", "blob", "PUT", f"{b}/public/x.jpg", headers=block, body=photo, auth="none")
    r.send("a comp Azure does not have", "blob", "GET", f"{b}/photos/ada.jpg", query="comp=nonsense")
    r.send("an operation serve leaves out", "blob", "PUT", f"{b}/photos/ada.jpg", query="comp=lease", headers={"x-ms-lease-action": "acquire"})
    r.send("a container operation serve leaves out", "blob", "PUT", f"{b}/photos", query="restype=container&comp=metadata")
    r.send("a service operation serve leaves out", "blob", "GET", f"{b}/", query="restype=service&comp=properties")
    r.send("a container without restype", "blob", "PUT", f"{b}/photos")
    r.send("a verb no operation uses", "blob", "PATCH", f"{b}/photos/ada.jpg")
    r.send("a body over 64 MiB", "blob", "PUT", f"{b}/photos/huge.bin", headers=block, body=b"Z" * ((64 << 20) + 1))
    r.send("a block list over 8 MiB", "blob", "PUT", f"{b}/photos/big.bin", query="comp=blocklist", body=b"Z" * ((8 << 20) + 1))
    r.send("a wrong signature", "blob", "GET", f"{b}/photos/ada.jpg", headers={"Authorization": f"SharedKey {ACCOUNT}:AAAA{sign('x')[4:]}"}, auth="none")
    r.send("a malformed Authorization", "blob", "GET", f"{b}/photos/ada.jpg", headers={"Authorization": "Bearer nothing"}, auth="none")
    r.send("a SAS with a bad signature", "blob", "GET", f"{b}/photos/ada.jpg", query=re.sub(r"sig=[^&]*", "sig=AAAA", blob_sas("photos", "ada.jpg", "r")), auth="none")
    r.send("a read SAS that deletes", "blob", "DELETE", f"{b}/photos/ada.jpg", query=blob_sas("photos", "ada.jpg", "r"), auth="none")
    r.send("a SAS for another blob", "blob", "GET", f"{b}/photos/big.bin", query=blob_sas("photos", "ada.jpg", "r"), auth="none")
    r.send("a read SAS that reads", "blob", "GET", f"{b}/photos/ada.jpg", query=blob_sas("photos", "ada.jpg", "r"), auth="none")
    r.send("a query that cannot be decoded", "blob", "GET", f"{b}/photos/ada.jpg", query="a=%ZZ", auth="none")
    r.send("an unknown account", "blob", "GET", "/otheraccount/photos/ada.jpg")
    r.send("a path with ..", "blob", "GET", f"{b}/photos/../secret")
    r.send("a path with a bad escape", "blob", "GET", f"{b}/photos/%FF.jpg")
    r.send("the alias", "blob", "GET", "/speakeasy/photos/ada.jpg")
    r.send("delete with a stale If-Match", "blob", "DELETE", f"{b}/photos/ada.jpg", headers={"If-Match": "\"0x8D000000000000\""})
    r.send("delete the blob", "blob", "DELETE", f"{b}/photos/ada.jpg")
    r.send("delete it again", "blob", "DELETE", f"{b}/photos/ada.jpg")
    r.send("delete the container", "blob", "DELETE", f"{b}/photos", query="restype=container")
    r.send("delete a missing container", "blob", "DELETE", f"{b}/nosuch", query="restype=container")


def faults(r):
    for service in ("table", "blob"):
        for fault in ("busy", "broken"):
            r.send(f"{service}: a {fault} fault", service, "GET", f"/{ACCOUNT}/{fault}", headers=FORMATS["minimalmetadata"] if service == "table" else {})
        r.send(f"{service}: a busy fault in Atom", service, "GET", f"/{ACCOUNT}/busy", headers=FORMATS["atom"])


def main():
    binary, output = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as directory, open(output, "w", encoding="utf-8") as out:
        for label, extra, run in [
            ("plain", [], lambda r: (tables(r), blobs(r))),
            ("faults", ["--faults", f"503/path=/{ACCOUNT}/busy,500/path=/{ACCOUNT}/broken"], faults),
        ]:
            process, ports = start(binary, os.path.join(directory, f"{label}.sqlite"), extra)
            try:
                recorder = Recorder(out)
                recorder.ports = ports
                run(recorder)
            finally:
                process.terminate()
                process.wait(timeout=60)


if __name__ == "__main__":
    main()
