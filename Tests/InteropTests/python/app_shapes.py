"""Queries a running `serve` exactly as the SpeakEasy app does, and prints the EventDates it read.

    python app_shapes.py TABLE_ORIGIN BLOB_ORIGIN ACCOUNT KEY PHOTO_PATH

The app talks to Azure through the Windows Azure Toolkit for iOS, whose request shapes this copies
from its source (WAAuthenticationCredential.m, WACloudStorageClient.m, WAXMLHelper.m):
- the URL is production style, http://<account>.table.core.windows.net/<table>()?$filter=…, so the
  account is the first label of the Host header and not in the path (here the Host header carries
  that name while the connection goes to TABLE_ORIGIN on loopback, as a hosts-file entry would do);
- Shared Key with the toolkit's table string-to-sign, "VERB\\nContent-MD5\\nContent-Type\\nDate\\n/"
  + account + "/" + the path without its leading slash, the date sent as x-ms-date;
- no x-ms-version on table requests; `MaxDataServiceVersion: 2.0;NetFx`,
  `Accept: application/atom+xml,application/xml` and `User-Agent: NativeHost` (prepareTableRequest);
- the reply is read with libxml2's XPath (here through lxml), registering only the namespaces
  declared on the root element, the default one as `_default` (WAXMLHelper performXPath), and the
  entries found with `/_default:feed/_default:entry`.
Nothing here uses the project's code. The printed JSON is what AppShapeTests checks; the dates are
judged there by Foundation's DateFormatter, the app's parser.
"""

import base64
import hashlib
import hmac
import json
import sys
from email.utils import formatdate
from urllib.parse import quote

import requests
from lxml import etree

table_origin, blob_origin, account, key, photo_path = sys.argv[1:6]
secret = base64.b64decode(key)


def app_get(path_and_query):
    """One GET as the toolkit signs and sends it; returns (status, headers, body)."""
    path = path_and_query.split("?", 1)[0]
    date = formatdate(usegmt=True)
    string_to_sign = f"GET\n\n\n{date}\n/{account}/{path.lstrip('/')}"
    signature = base64.b64encode(hmac.new(secret, string_to_sign.encode("ascii"), hashlib.sha256).digest()).decode()
    headers = {
        "Host": f"{account}.table.core.windows.net",
        "x-ms-date": date,
        "Authorization": f"SharedKey {account}:{signature}",
        "MaxDataServiceVersion": "2.0;NetFx",
        "Accept": "application/atom+xml,application/xml",
        "User-Agent": "NativeHost",
    }
    reply = requests.get(table_origin + path_and_query, headers=headers, timeout=30)
    return reply.status_code, reply.headers, reply.content


def xpath(node, expression, root):
    """WAXMLHelper's performXPath: only the root element's own namespace declarations are known."""
    namespaces = {("_default" if prefix is None else prefix): uri for prefix, uri in root.nsmap.items()}
    return node.xpath(expression, namespaces=namespaces)


seen = {"pages": 0, "dates": [], "types": [], "statuses": []}
query = "/events()?$filter=" + quote("PartitionKey eq 'Events'", safe="'")
while True:
    status, headers, body = app_get(query)
    seen["statuses"].append(status)
    if status != 200:
        seen["error"] = body.decode("utf-8", "replace")[:500]
        break
    seen["content_type"] = headers.get("Content-Type")
    root = etree.fromstring(body)
    seen["root_namespaces"] = sorted(p or "_default" for p in root.nsmap)
    seen["pages"] += 1
    for entry in xpath(root, "/_default:feed/_default:entry", root):
        for date in xpath(entry, "_default:content/m:properties/d:EventDate", root):
            seen["dates"].append(date.text)
            seen["types"].append(date.get("{http://schemas.microsoft.com/ado/2007/08/dataservices/metadata}type"))
    next_partition = headers.get("x-ms-continuation-NextPartitionKey")
    if not next_partition:
        break
    query = ("/events()?$filter=" + quote("PartitionKey eq 'Events'", safe="'") + "&NextPartitionKey=" + quote(next_partition)
             + "&NextRowKey=" + quote(headers.get("x-ms-continuation-NextRowKey", "")))

# The app's wrong key: Azure's 403, as XML the toolkit's checkForError reads.
secret_kept, secret = secret, b"not the key"
status, _, body = app_get("/events()")
secret = secret_kept
seen["wrong_key"] = [status, etree.fromstring(body).tag if body.strip() else None]

# A photo as the app's image view loads it: production style on the Blob service, no credentials.
photo = requests.get(blob_origin + photo_path, headers={"Host": f"{account}.blob.core.windows.net"}, timeout=30)
seen["photo"] = [photo.status_code, photo.headers.get("Content-Type"), len(photo.content)]
# The photos' listing by host name (public at container level): it names the service as it was asked.
listing = requests.get(blob_origin + "/speakers", params={"restype": "container", "comp": "list"},
                       headers={"Host": f"{account}.blob.core.windows.net"}, timeout=30)
seen["listing"] = [listing.status_code, etree.fromstring(listing.content).get("ServiceEndpoint") if listing.ok else None]
print(json.dumps(seen))
