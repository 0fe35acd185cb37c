#!/usr/bin/env python3
"""Writes an Azure Table Atom feed of SpeakEasy events, shaped like the service's answers (CRLF,
two-space indentation, m:etag, Timestamp), for the Atom reader benchmark. Usage: make-feed.py OUT MB"""
import random, sys, uuid

out_path, megabytes = sys.argv[1], float(sys.argv[2])
rng = random.Random(42)
names = ["Mobile Mondays", "iOS Meetup", "Windows Phone Meetup", "Android Meetup", "HTML5 Meetup", "SharePoint Saturdays"]
places = ["Chicago, IL", "Milwaukee, WI", "Madison, WI", "Boston, MA", "Washington, DC", "Los Angeles, CA", "Las Vegas, NV", "New York City, NY"]
speakers = [(str(uuid.UUID(int=rng.getrandbits(128))), n) for n in
            ["Bart Tubalinal", "Bert Johnson", "Travis Nielsen", "Matt Morse", "Mo Omar", "Darya Orlova", "Callie Jones", "Ela Gardner"]]
lorem = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna "
         "aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. ") * 6
base = "https://speakeasy.table.core.windows.net/"
head = ('<?xml version="1.0" encoding="utf-8" standalone="yes"?>\r\n'
        f'<feed xml:base="{base}" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" '
        'xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" xmlns="http://www.w3.org/2005/Atom">\r\n'
        '  <title type="text">events</title>\r\n'
        f'  <id>{base}events</id>\r\n  <updated>2024-05-01T10:00:00Z</updated>\r\n'
        '  <link rel="self" title="events" href="events" />\r\n')
target = int(megabytes * 1_000_000)
with open(out_path, "w", encoding="utf-8", newline="") as out:
    out.write(head)
    written, count = len(head), 0
    while written < target:
        row = str(uuid.UUID(int=rng.getrandbits(128)))
        key, speaker = rng.choice(speakers)
        stamp = f"2024-05-01T10:{count // 600 % 60:02d}:{count // 10 % 60:02d}.{rng.randrange(10**7):07d}Z"
        date = f"20{rng.randrange(24, 27)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}T{rng.randrange(8, 20):02d}:30:00Z"
        path = f"events(PartitionKey='Events',RowKey='{row}')"
        entry = (f'  <entry m:etag="W/&quot;datetime\'{stamp.replace(":", "%3A")}\'&quot;">\r\n'
                 f'    <id>{base}{path}</id>\r\n    <title type="text"></title>\r\n    <updated>2024-05-01T10:00:00Z</updated>\r\n'
                 '    <author>\r\n      <name />\r\n    </author>\r\n'
                 f'    <link rel="edit" title="events" href="{path}" />\r\n'
                 '    <category term="speakeasy.events" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme" />\r\n'
                 '    <content type="application/xml">\r\n      <m:properties>\r\n'
                 '        <d:PartitionKey>Events</d:PartitionKey>\r\n'
                 f'        <d:RowKey>{row}</d:RowKey>\r\n'
                 f'        <d:Timestamp m:type="Edm.DateTime">{stamp}</d:Timestamp>\r\n'
                 f'        <d:EventDate m:type="Edm.DateTime">{date}</d:EventDate>\r\n'
                 f'        <d:EventName>{rng.choice(names)}</d:EventName>\r\n'
                 f'        <d:EventLocation>{rng.choice(places)}</d:EventLocation>\r\n'
                 f'        <d:EventDescription>{lorem[:1000]}</d:EventDescription>\r\n'
                 f'        <d:SpeakerKey>{key}</d:SpeakerKey>\r\n'
                 f'        <d:SpeakerName>{speaker}</d:SpeakerName>\r\n'
                 '      </m:properties>\r\n    </content>\r\n  </entry>\r\n')
        out.write(entry)
        written += len(entry.encode())
        count += 1
    out.write("</feed>\r\n")
print(f"{out_path}: {count} entries, {written / 1e6:.0f} MB")
