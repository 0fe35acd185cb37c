import Mustache

/// The HTML report's Mustache templates, compiled into the binary.
///
/// Kept as Swift strings rather than `.mustache` resources: on Linux a Bundle's resources point into
/// the build directory, and an installed `validate` has none. Every value from the data goes through
/// `{{…}}`, which escapes `<`, `>`, `&`, `"` and `'`, so it is text in an element and stays inside
/// its quoted attribute; `{{{…}}}` is never used. The page has no script at all, and its Content
/// Security Policy allows none, nor any request but its own inline `data:` images.
enum HTMLReportTemplate {
    /// The compiled templates; `page` renders an ``HTMLReportWriter`` page.
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        do {
            try library.register(chart, named: "chart")
            try library.register(speaker, named: "speaker")
            try library.register(rule, named: "rule")
            try library.register(page, named: "page")
        } catch {
            // The templates are constants: one that does not parse is a bug the tests catch at once.
            preconditionFailure("an HTML report template does not parse: \(error)")
        }
        return library
    }()

    /// One bar chart and, beside it, the table of its numbers (what a screen reader reads).
    static let chart = """
        <div class="chart-row">
        <figure class="chart" id="{{id}}-chart">
        <svg viewBox="0 0 {{chartWidth}} {{chartHeight}}" width="{{chartWidth}}" height="{{chartHeight}}" \
        role="img" aria-labelledby="{{id}}-title"><title id="{{id}}-title">{{title}}</title>
        <line class="axis" x1="0" y1="{{plotHeight}}" x2="{{chartWidth}}" y2="{{plotHeight}}"/>
        {{#bars}}<rect class="bar" x="{{x}}" y="{{y}}" width="{{width}}" height="{{height}}"><title>{{label}}: {{value}}</title></rect>
        {{/bars}}{{#bars}}{{#showsLabel}}<text x="{{labelX}}" y="{{labelY}}" text-anchor="middle">{{label}}</text>
        {{/showsLabel}}{{/bars}}</svg>
        <figcaption>{{title}}; the highest bar is {{maximum}}.</figcaption>
        </figure>
        <div class="numbers-wrap"><table class="numbers" id="{{id}}-table">
        <caption>{{title}}</caption>
        <thead><tr><th scope="col">{{unit}}</th><th scope="col">Events</th></tr></thead>
        <tbody>
        {{#bars}}<tr><th scope="row">{{label}}</th><td class="n">{{value}}</td></tr>
        {{/bars}}</tbody>
        </table></div>
        </div>
        """

    static let page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
        <meta name="generator" content="speakeasy validate {{toolVersion}}">
        <title>validate: {{verdict}}</title>
        <style>
        body { font: 15px/1.45 system-ui, sans-serif; color: #1b1f24; background: #fff; margin: 0 auto; padding: 1em 1.5em 3em; max-width: 1120px; }
        h1 { font-size: 1.5em; margin: 0.2em 0; }
        h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #d0d7de; padding-bottom: 0.2em; }
        h3 { font-size: 1em; }
        .verdict { font-size: 1.15em; font-weight: 600; padding: 0.6em 0.9em; border-radius: 6px; }
        .verdict.fail { background: #ffebe9; border-left: 6px solid #cf222e; }
        .verdict.warn { background: #fff8c5; border-left: 6px solid #bf8700; }
        .verdict.pass { background: #dafbe1; border-left: 6px solid #1a7f37; }
        .note { color: #57606a; }
        table { border-collapse: collapse; margin: 0.5em 0; }
        th, td { text-align: left; vertical-align: top; padding: 0.25em 0.6em; border-bottom: 1px solid #eaeef2; }
        thead th { border-bottom: 2px solid #d0d7de; }
        caption { text-align: left; font-weight: 600; padding: 0.3em 0; }
        td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 1.2em; }
        .facts dt { color: #57606a; }
        .facts dd { margin: 0; }
        .sev-error { color: #cf222e; font-weight: 600; }
        .sev-warning { color: #9a6700; font-weight: 600; }
        tr.clean td { color: #57606a; }
        .chart-row { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
        .chart { margin: 0; flex: 1 1 480px; min-width: 320px; }
        .chart svg { width: 100%; height: auto; display: block; }
        .chart .bar { fill: #0969da; }
        .chart .axis { stroke: #57606a; stroke-width: 1; }
        .chart text { font-size: 11px; fill: #57606a; }
        .chart figcaption { color: #57606a; font-size: 0.9em; }
        .numbers-wrap { max-height: 22em; overflow-y: auto; flex: 0 0 auto; }
        .thumb { width: 40px; height: 40px; object-fit: cover; border-radius: 50%; display: block; }
        .nophoto { width: 40px; height: 40px; border-radius: 50%; background: #eaeef2; }
        details.rule { border: 1px solid #d0d7de; border-radius: 6px; margin: 0.6em 0; padding: 0.3em 0.8em; }
        details.rule > summary { cursor: pointer; padding: 0.3em 0; }
        table.findings { width: 100%; table-layout: fixed; }
        table.findings td { overflow-wrap: anywhere; }
        table.findings col.place { width: 22%; }
        table.findings col.keys { width: 26%; }
        .related { color: #57606a; font-size: 0.9em; }
        code, .key { font-family: ui-monospace, monospace; font-size: 0.92em; }
        </style>
        </head>
        <body>
        <header>
        <h1>SpeakEasy data: validation report</h1>
        <p class="verdict {{verdictClass}}" id="verdict">{{verdict}}</p>
        {{#truncated}}<p class="note" id="truncated">{{truncationNote}}</p>{{/truncated}}
        </header>
        <main>
        <section id="summary" aria-labelledby="summary-heading">
        <h2 id="summary-heading">Verdict</h2>
        <dl class="facts">
        <dt>Errors</dt><dd id="error-count">{{errors}}</dd>
        <dt>Warnings</dt><dd id="warning-count">{{warnings}}</dd>
        <dt>Entities checked</dt><dd id="entities-checked">{{entitiesChecked}}</dd>
        {{#elapsed}}<dt>Time taken</dt><dd id="elapsed">{{.}}</dd>{{/elapsed}}
        <dt>Tool</dt><dd>validate {{toolVersion}}</dd>
        </dl>
        {{#found}}<table id="rules">
        <caption>Findings by rule</caption>
        <thead><tr><th scope="col">Rule</th><th scope="col">Severity</th><th scope="col" class="n">Findings</th><th scope="col">What it checks</th></tr></thead>
        <tbody>
        {{#rules}}{{> rule}}{{/rules}}\
        </tbody>
        </table>{{/found}}
        {{^found}}<p id="rules">No rule found anything.</p>{{/found}}
        {{#passedCount}}<details id="passed-rules"><summary>{{.}} checked and found nothing</summary>
        <table>
        <thead><tr><th scope="col">Rule</th><th scope="col">Severity</th><th scope="col" class="n">Findings</th><th scope="col">What it checks</th></tr></thead>
        <tbody>
        {{#passed}}{{> rule}}{{/passed}}\
        </tbody>
        </table>
        </details>{{/passedCount}}
        <table id="inputs">
        <caption>Inputs</caption>
        <thead><tr><th scope="col">Input</th>{{#sized}}<th scope="col" class="n">Size</th>{{/sized}}\
        {{#counted}}<th scope="col" class="n">Entities</th>{{/counted}}</tr></thead>
        <tbody>
        {{#inputs}}<tr><td><bdi>{{name}}</bdi></td>{{#sized}}<td class="n">{{size}}</td>{{/sized}}\
        {{#counted}}<td class="n">{{entities}}</td>{{/counted}}</tr>
        {{/inputs}}</tbody>
        </table>
        </section>
        {{#overview}}
        <section id="dates" aria-labelledby="dates-heading">
        <h2 id="dates-heading">Dates</h2>
        {{#months}}{{> chart}}{{/months}}
        {{^months}}<p>No event has a date.</p>{{/months}}
        <table id="readability">
        <caption>How the app reads the dates, as Azure serves them</caption>
        <thead><tr><th scope="col">Events</th><th scope="col" class="n">Count</th></tr></thead>
        <tbody>
        {{#readability}}<tr id="dates-{{key}}"><th scope="row">{{label}}</th><td class="n">{{value}}</td></tr>
        {{/readability}}</tbody>
        </table>
        <p class="note">The app parses EventDate with the pattern <code>yyyy-MM-dd'T'HH:mm:ss.SSSSSSS'Z'</code>. \
        Azure keeps ticks and serves a date with its trailing fractional zeros trimmed, so a date on a whole \
        second comes back as <code>…:00Z</code>, which that pattern refuses: the event shows no date.</p>
        {{#seeded}}
        <h3>When the seeded events happen</h3>
        {{#hours}}{{> chart}}{{/hours}}
        {{#weekdays}}{{> chart}}{{/weekdays}}
        {{/seeded}}
        </section>
        <section id="people" aria-labelledby="people-heading">
        <h2 id="people-heading">People</h2>
        <table id="speakers">
        <caption>Events per speaker{{#speakersCapped}} ({{speakersShown}} busiest shown of {{speakersWithEvents}}){{/speakersCapped}}</caption>
        <thead><tr><th scope="col">Photo</th><th scope="col">Speaker</th><th scope="col">RowKey</th><th scope="col" class="n">Events</th></tr></thead>
        <tbody>
        {{#speakers}}{{> speaker}}{{/speakers}}\
        </tbody>
        </table>
        {{#thumbnailNote}}<p class="note">{{.}}</p>{{/thumbnailNote}}
        <p id="events-without-speaker">Events whose SpeakerKey names no speaker, or that have none: {{eventsWithoutSpeaker}}.</p>
        {{#hasIdle}}<table id="idle-speakers">
        <caption>Speakers without events: {{idleCount}}{{#idleCapped}} ({{idleShown}} shown){{/idleCapped}}</caption>
        <thead><tr><th scope="col">Photo</th><th scope="col">Speaker</th><th scope="col">RowKey</th><th scope="col" class="n">Events</th></tr></thead>
        <tbody>
        {{#idle}}{{> speaker}}{{/idle}}\
        </tbody>
        </table>{{/hasIdle}}
        {{^hasIdle}}<p id="idle-speakers">Every speaker has events.</p>{{/hasIdle}}
        </section>
        {{/overview}}
        <section id="findings" aria-labelledby="findings-heading">
        <h2 id="findings-heading">Findings</h2>
        {{^groups}}<p>No findings.</p>{{/groups}}
        {{#groups}}
        <details class="rule" id="rule-{{index}}" data-rule="{{id}}">
        <summary><span class="sev-{{severity}}">{{severity}}</span> <code>{{id}}</code>: \
        <span class="count">{{countText}}</span>{{#capped}}, <span class="shown">{{shown}} shown of {{count}}</span>{{/capped}} — {{summary}}</summary>
        <table class="findings">
        <colgroup><col class="place"><col class="keys"><col></colgroup>
        <thead><tr><th scope="col">Place</th><th scope="col">PartitionKey / RowKey</th><th scope="col">Message</th></tr></thead>
        <tbody>
        {{#rows}}<tr class="finding"><td class="place"><bdi>{{place}}</bdi></td>\
        <td class="keys"><bdi class="key pk">{{partitionKey}}</bdi><br><bdi class="key rk">{{rowKey}}</bdi></td>\
        <td><span class="message">{{message}}</span>{{#related}}<div class="related">see <bdi>{{.}}</bdi></div>{{/related}}</td></tr>
        {{/rows}}</tbody>
        </table>
        {{#capped}}<p class="note">{{shown}} shown of {{count}}, to keep this page quick to open. \
        The JSON report (<code>--report json</code>) lists every finding.</p>{{/capped}}
        </details>
        {{/groups}}
        </section>
        </main>
        </body>
        </html>

        """

    /// One rule's row in the verdict: its id (a link to its findings when it has any), severity,
    /// count and summary.
    static let rule = """
        <tr class="{{#clean}}clean{{/clean}}{{^clean}}found{{/clean}}" data-rule="{{id}}"><td>{{#clean}}<code>{{id}}</code>{{/clean}}\
        {{^clean}}<a href="#rule-{{index}}"><code>{{id}}</code></a>{{/clean}}</td>\
        <td class="sev-{{severity}}">{{severity}}</td><td class="n">{{count}}</td><td>{{summary}}</td></tr>

        """

    /// One speaker's row: the photo when the report carries it, the name, the key and the events.
    static let speaker = """
        <tr class="speaker"><td>{{#photo}}<img class="thumb" src="{{.}}" alt="" width="40" height="40">{{/photo}}\
        {{^photo}}<div class="nophoto"></div>{{/photo}}</td>\
        <td class="name"><bdi>{{name}}</bdi></td><td><bdi class="key">{{rowKey}}</bdi></td><td class="n">{{events}}</td></tr>

        """
}
