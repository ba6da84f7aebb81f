extension FlameGraphSVG {
    /// Zoom, search and the details line. Frames keep their drawn geometry as the unzoomed
    /// layout; zooming maps a frame's span onto the full width, shows its ancestors across it
    /// (faded), and hides everything outside it.
    static let script = """

    (function () {
      var svg = document.documentElement;
      var frames = Array.prototype.slice.call(document.querySelectorAll('#frames > g'));
      var left = 10, full = parseFloat(svg.getAttribute('width')) - 20, charWidth = \(charWidth);
      var details = document.getElementById('details'), matched = document.getElementById('matched');
      var resetButton = document.getElementById('reset'), searchButton = document.getElementById('search');
      var hint = details.textContent, searching = null;
      frames.forEach(function (g) {
        var r = g.querySelector('rect');
        g.info = { x: parseFloat(r.getAttribute('x')), w: parseFloat(r.getAttribute('width')), y: parseFloat(r.getAttribute('y')),
                   name: g.querySelector('title').textContent.split('\\n')[0], hover: g.querySelector('title').textContent,
                   fill: r.getAttribute('fill') };
        g.info.short = g.getAttribute('data-short') || g.info.name;
        g.addEventListener('click', function (e) { zoom(g); e.stopPropagation(); });
        g.addEventListener('mouseover', function () { details.textContent = g.info.hover.replace(/\\n/g, ' · '); });
        g.addEventListener('mouseout', function () { details.textContent = hint; });
      });
      function place(g, x, w) {
        var r = g.querySelector('rect'), t = g.querySelector('text');
        r.setAttribute('x', x.toFixed(1)); r.setAttribute('width', w.toFixed(1));
        t.setAttribute('x', (x + 3).toFixed(1));
        var fits = Math.floor((w - 6) / charWidth), name = g.info.name, short = g.info.short;
        t.textContent = fits < 3 ? '' : name.length <= fits ? name : short.length <= fits ? short : short.slice(0, fits - 2) + '..';
      }
      function zoom(target) {
        var t = target.info, scale = full / t.w, eps = 0.01;
        frames.forEach(function (g) {
          var f = g.info;
          g.classList.remove('hidden', 'ancestor');
          if (f.y > t.y && f.x <= t.x + eps && f.x + f.w >= t.x + t.w - eps) { g.classList.add('ancestor'); place(g, left, full); }
          else if (f.y <= t.y && f.x >= t.x - eps && f.x + f.w <= t.x + t.w + eps) { place(g, left + (f.x - t.x) * scale, f.w * scale); }
          else { g.classList.add('hidden'); }
        });
        resetButton.classList.toggle('hidden', t.w >= full - eps);
      }
      function reset() { if (frames.length) zoom(frames[0]); }
      function search() {
        var pattern = prompt('Highlight the frames whose names match (a regular expression):', searching || '');
        if (pattern) highlight(pattern);
      }
      // Also callable from the page's console: flameSearch('FlowJSON').
      function highlight(pattern) {
        clearSearch();
        var re;
        try { re = new RegExp(pattern); } catch (e) { alert('Not a regular expression: ' + e.message); return; }
        var spans = [];
        frames.forEach(function (g) {
          if (!re.test(g.info.name)) return;
          g.querySelector('rect').setAttribute('fill', 'rgb(220,40,220)');
          spans.push([g.info.x, g.info.x + g.info.w]);
        });
        // The share is of the whole run: nested matches are counted once.
        spans.sort(function (a, b) { return a[0] - b[0]; });
        var covered = 0, end = -Infinity;
        spans.forEach(function (s) { if (s[1] > end) { covered += s[1] - Math.max(s[0], end); end = s[1]; } });
        searching = pattern;
        matched.textContent = 'Matched /' + pattern + '/: ' + (100 * covered / full).toFixed(2) + '% (' + spans.length + ' frames)';
        searchButton.textContent = 'Clear search';
      }
      function clearSearch() {
        frames.forEach(function (g) { g.querySelector('rect').setAttribute('fill', g.info.fill); });
        searching = null; matched.textContent = ''; searchButton.textContent = 'Search';
      }
      resetButton.addEventListener('click', reset);
      searchButton.addEventListener('click', function () { if (searching) clearSearch(); else search(); });
      window.flameSearch = highlight;
      window.flameZoom = function (name) { var g = frames.filter(function (g) { return g.info.name === name; })[0]; if (g) zoom(g); };
      window.addEventListener('keydown', function (e) {
        if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); search(); }
        else if (e.key === 'Escape') { if (searching) clearSearch(); else reset(); }
      });
    })();

    """
}
