/// The browser view's stylesheet and icon, served from the binary at `/style.css` and `/favicon.svg`:
/// nothing loaded from elsewhere (fonts are the system's). A browser asks for an icon whatever the
/// page says; without one of our own it would log the miss as an error.
enum AccountViewStyle {
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#36c"/>\
        <path d="M3 5h10M3 8h10M3 11h10" stroke="#fff" stroke-width="1.5"/></svg>
        """

    static let css = """
        :root { color-scheme: light dark; --line: #8884; --muted: #777; --warn: #b3261e; }
        body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 0 1.5rem 3rem; max-width: 110rem; }
        header { display: flex; justify-content: space-between; align-items: baseline; border-bottom: 1px solid var(--line); padding: .75rem 0; }
        header p { margin: 0; color: var(--muted); }
        h1 { font-size: 1.5rem; overflow-wrap: anywhere; }
        h2 { font-size: 1.2rem; margin-top: 2rem; }
        h3 { font-size: 1rem; margin-bottom: .25rem; }
        table { border-collapse: collapse; margin: .5rem 0 1rem; }
        th, td { border: 1px solid var(--line); padding: .3rem .55rem; text-align: left; vertical-align: top; }
        thead th { background: #8881; position: sticky; top: 0; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        .type { font-weight: normal; color: var(--muted); font-size: .85em; }
        .grid-frame { overflow: auto; max-height: 75vh; border: 1px solid var(--line); }
        .grid { margin: 0; width: 100%; }
        .grid td { max-width: 24rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        code { font: .9em ui-monospace, monospace; overflow-wrap: anywhere; white-space: pre-wrap; }
        .unreadable { color: var(--warn); }
        td.unreadable::after { content: " ⚠"; }
        p.unreadable { margin: .35rem 0 0; }
        .problem { border-left: 4px solid var(--warn); padding: .5rem .75rem; background: #b3261e14; }
        form.filter { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin: 1rem 0; }
        form.filter input[name="$filter"] { flex: 1 1 30rem; font: .95em ui-monospace, monospace; padding: .3rem; }
        .gallery { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: 1rem; }
        .gallery figure { margin: 0; border: 1px solid var(--line); padding: .5rem; }
        .gallery img { display: block; width: 100%; height: 12rem; object-fit: contain; background: #8881; }
        .gallery dl, .keys { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .75rem; margin: .5rem 0 0; }
        .gallery dd, .keys dd { margin: 0; overflow-wrap: anywhere; }
        .gallery dt, .keys dt { color: var(--muted); }
        a.next { font-weight: 600; }

        """
}
