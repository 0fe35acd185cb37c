import Mustache

/// The browser view's pages as Mustache templates, compiled into the binary: a resource bundle would
/// not travel with an installed binary. `{{x}}` escapes `< > & " '`; no template uses `{{{x}}}`, so
/// nothing from the data is ever markup. Links are built (``AccountViewLink``) with every query
/// value percent-encoded, then escaped here like any other text.
enum AccountViewTemplates {
    enum Name: String, CaseIterable {
        case home, partitions, entities, entity, container, validation, error
    }

    /// Every page and the partials they share, parsed once.
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        let templates: [(String, String)] = [
            ("header", header), ("footer", footer), ("counts", counts),
            (Name.home.rawValue, home), (Name.partitions.rawValue, partitions),
            (Name.entities.rawValue, entities), (Name.entity.rawValue, entity),
            (Name.container.rawValue, container), (Name.validation.rawValue, validation),
            (Name.error.rawValue, error),
        ]
        for (name, text) in templates {
            // A template that does not parse is a bug here, found by any test that opens a page.
            try! library.register(text, named: name)
        }
        return library
    }()

    /// The frame's top, with the way back up (`crumbs`) and the title.
    static let header = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · serve</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="/style.css">
        </head>
        <body>
        <header>
        <nav aria-label="Where you are"><a href="/">Account</a>{{#crumbs}} › <a href="{{href}}">{{text}}</a>{{/crumbs}}</nav>
        <p class="tag">read-only view · <a href="/validate">validate</a></p>
        </header>
        <main>
        <h1>{{title}}</h1>

        """

    static let footer = """
        </main>
        </body>
        </html>

        """

    /// A table's partitions with their entity counts.
    static let counts = """
        <table class="counts" data-table="{{name}}">
        <thead><tr><th scope="col">Partition</th><th scope="col">Entities</th></tr></thead>
        <tbody>
        {{#partitions}}
        <tr data-partition="{{partitionKey}}"><td><a href="{{href}}">{{partitionKey}}</a></td><td class="num" data-count="{{entities}}">{{entities}}</td></tr>
        {{/partitions}}
        </tbody>
        </table>

        """

    static let home = """
        {{> header}}
        <section aria-labelledby="tables">
        <h2 id="tables">Tables</h2>
        {{^tables}}<p>The account has no tables.</p>{{/tables}}
        {{#tables}}
        <h3 class="table-name"><a href="{{href}}">{{name}}</a></h3>
        {{#hasPartitions}}{{> counts}}{{/hasPartitions}}
        {{^hasPartitions}}<p>No entities.</p>{{/hasPartitions}}
        {{#more}}<p><a href="{{.}}">More partitions of {{name}}</a></p>{{/more}}
        {{/tables}}
        </section>
        <section aria-labelledby="containers">
        <h2 id="containers">Containers</h2>
        {{^containers}}<p>The account has no containers.</p>{{/containers}}
        <ul class="containers">
        {{#containers}}
        <li><a href="{{href}}">{{name}}</a></li>
        {{/containers}}
        </ul>
        </section>
        {{> footer}}
        """

    static let partitions = """
        {{> header}}
        <p><a href="{{allHref}}">All entities of {{name}}</a></p>
        {{#hasPartitions}}{{> counts}}{{/hasPartitions}}
        {{^hasPartitions}}<p>No entities.</p>{{/hasPartitions}}
        {{#next}}<p><a rel="next" class="next" href="{{.}}">Next partitions</a></p>{{/next}}
        {{> footer}}
        """

    static let entities = """
        {{> header}}
        <form class="filter" method="get" action="/entities">
        <input type="hidden" name="table" value="{{table}}">
        {{#hasPartition}}<input type="hidden" name="partition" value="{{partition}}">{{/hasPartition}}
        <label for="filter">$filter</label>
        <input id="filter" name="$filter" value="{{filter}}" size="60" spellcheck="false" placeholder="RowKey ge 'a' and EventName eq 'Keynote'">
        <button type="submit">Query</button>
        </form>
        {{#problem}}<p class="problem" role="alert" id="problem">{{.}}</p>{{/problem}}
        {{^problem}}
        <p class="summary"><span id="row-count">{{rowCount}}</span> entities on this page{{#next}}; more follow{{/next}}.</p>
        <div class="grid-frame">
        <table class="grid" id="grid">
        <thead><tr><th scope="col">PartitionKey</th><th scope="col">RowKey</th><th scope="col">Timestamp</th>{{#columns}}<th scope="col" data-name="{{name}}">{{name}}<br><span class="type">{{types}}</span></th>{{/columns}}</tr></thead>
        <tbody>
        {{#rows}}
        <tr data-partition-key="{{partitionKey}}" data-row-key="{{rowKey}}"><td>{{partitionKey}}</td><td><a href="{{href}}">{{rowKey}}</a></td><td>{{timestamp}}</td>{{#cells}}<td{{#unreadable}} class="unreadable" title="{{.}}"{{/unreadable}}>{{text}}</td>{{/cells}}</tr>
        {{/rows}}
        </tbody>
        </table>
        </div>
        {{#next}}<p><a rel="next" class="next" id="next" href="{{.}}">Next page</a></p>{{/next}}
        {{^next}}<p class="end">End of the results.</p>{{/next}}
        {{/problem}}
        {{> footer}}
        """

    static let entity = """
        {{> header}}
        <dl class="keys">
        <dt>PartitionKey</dt><dd><code id="partition-key">{{partitionKey}}</code></dd>
        <dt>RowKey</dt><dd><code id="row-key">{{rowKey}}</code></dd>
        <dt>Timestamp</dt><dd><code>{{timestamp}}</code></dd>
        <dt>ETag</dt><dd><code>{{etag}}</code></dd>
        </dl>
        <table class="properties" id="properties">
        <thead><tr><th scope="col">Property</th><th scope="col">Type</th><th scope="col">Value, as stored</th></tr></thead>
        <tbody>
        {{#properties}}
        <tr data-name="{{name}}"><th scope="row" class="name">{{name}}</th><td class="type">{{type}}</td><td><code class="value">{{lexical}}</code>{{#served}}<br><span class="served">Azure serves <code>{{.}}</code></span>{{/served}}{{#problem}}<p class="unreadable" role="note"><strong>{{rule}}</strong>: <span class="finding">{{message}}</span></p>{{/problem}}</td></tr>
        {{/properties}}
        </tbody>
        </table>
        {{> footer}}
        """

    static let container = """
        {{> header}}
        <p>Public access: {{access}}.</p>
        {{^blobs}}<p>No blobs.</p>{{/blobs}}
        <ul class="gallery" id="gallery">
        {{#blobs}}
        <li><figure>
        {{#isImage}}<img src="{{href}}" alt="{{name}}">{{/isImage}}
        <figcaption><a href="{{href}}">{{name}}</a>
        <dl><dt>Size</dt><dd>{{size}} bytes</dd><dt>Content type</dt><dd>{{contentType}}</dd><dt>MD5</dt><dd><code>{{md5}}</code></dd><dt>ETag</dt><dd><code>{{etag}}</code></dd></dl>
        </figcaption>
        </figure></li>
        {{/blobs}}
        </ul>
        {{#next}}<p><a rel="next" class="next" href="{{.}}">Next blobs</a></p>{{/next}}
        {{> footer}}
        """

    static let validation = """
        {{> header}}
        <form method="post" action="/validate"><button type="submit" id="run">Run validate</button></form>
        {{^ran}}<p>validate has not run on this account since serve started.</p>{{/ran}}
        {{#failure}}<p class="problem" role="alert">{{.}}</p>{{/failure}}
        {{#report}}
        <p class="summary" id="verdict">{{ranAt}}: {{entities}} entities checked, <span id="errors">{{errors}}</span> errors, <span id="warnings">{{warnings}}</span> warnings.</p>
        {{#truncated}}<p>Only the first {{shown}} of {{total}} findings are listed.</p>{{/truncated}}
        {{^hasFindings}}<p id="no-findings">No findings.</p>{{/hasFindings}}
        {{#hasFindings}}
        <table class="findings" id="findings">
        <thead><tr><th scope="col">Rule</th><th scope="col">Severity</th><th scope="col">Where</th><th scope="col">Finding</th></tr></thead>
        <tbody>
        {{#findings}}
        <tr data-rule="{{rule}}"><td>{{rule}}</td><td>{{severity}}</td><td>{{#href}}<a href="{{.}}">{{place}}</a>{{/href}}{{^href}}{{place}}{{/href}}</td><td>{{message}}</td></tr>
        {{/findings}}
        </tbody>
        </table>
        {{/hasFindings}}
        {{/report}}
        {{> footer}}
        """

    static let error = """
        {{> header}}
        <p class="problem" role="alert" id="problem">{{message}}</p>
        <p><a href="/">Back to the account</a></p>
        {{> footer}}
        """
}
