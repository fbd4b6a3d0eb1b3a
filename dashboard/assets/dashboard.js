// Progressive enhancement of the dashboard pages; everything works without it.
// 1. Live tail: new runs arrive over Server-Sent Events and are prepended to #runs.
// 2. Auto-refresh: pages marked data-refresh reload their content every N seconds (paused while a form has focus).
// 3. Chart: the throughput / error-rate chart with uPlot (loaded by the page before this file).
(function () {
  var body = document.body;
  var base = body.getAttribute('data-base') || '';

  function cell(text, className) {
    var td = document.createElement('td');
    if (className) {
      var span = document.createElement('span');
      span.className = 'status ' + className;
      span.textContent = text;
      td.appendChild(span);
    } else td.textContent = text;
    return td;
  }

  var runs = document.getElementById('runs');
  if (runs && window.EventSource) {
    var source = new EventSource(base + '/events');
    source.addEventListener('run', function (event) {
      var run = JSON.parse(event.data);
      var row = document.createElement('tr');
      var link = document.createElement('a');
      link.href = base + '/runs/' + encodeURIComponent(run.id);
      link.textContent = run.trigger;
      var first = document.createElement('td');
      first.appendChild(link);
      row.appendChild(first);
      row.appendChild(cell(run.status, run.status));
      row.appendChild(cell(String(run.attempt)));
      row.appendChild(cell(Math.round(run.durationMs) + ' ms'));
      row.appendChild(cell(new Date(run.startedAt).toLocaleTimeString()));
      row.appendChild(cell(run.traceId));
      row.appendChild(cell(run.error || ''));
      row.setAttribute('data-run', run.id);
      var empty = runs.querySelector('[data-empty]');
      if (empty) empty.remove();
      runs.insertBefore(row, runs.firstChild);
      while (runs.children.length > 50) runs.removeChild(runs.lastChild);
    });
  }

  var refresh = Number(body.getAttribute('data-refresh') || 0);
  if (refresh > 0) {
    setInterval(function () {
      if (document.activeElement && document.activeElement.closest && document.activeElement.closest('form')) return;
      fetch(location.href, { headers: { accept: 'text/html' } })
        .then(function (response) {
          return response.ok ? response.text() : null;
        })
        .then(function (html) {
          if (!html) return;
          var next = new DOMParser().parseFromString(html, 'text/html');
          document.querySelectorAll('[data-refreshable]').forEach(function (node) {
            var fresh = next.getElementById(node.id);
            if (fresh) node.replaceWith(fresh);
          });
        })
        .catch(function () {});
    }, refresh * 1000);
  }

  var chart = document.getElementById('chart');
  if (chart && window.uPlot) {
    fetch(base + '/api/throughput', { headers: { accept: 'application/json' } })
      .then(function (response) {
        return response.json();
      })
      .then(function (data) {
        var rate = data.runs.map(function (n, i) {
          return n === 0 ? 0 : Math.round((100 * data.errors[i]) / n);
        });
        chart.textContent = '';
        new window.uPlot(
          {
            width: Math.max(300, chart.clientWidth),
            height: 200,
            series: [
              {},
              { label: 'runs / min', stroke: '#2d5bd7', fill: 'rgba(45,91,215,.08)' },
              { label: 'errors / min', stroke: '#8a1c1c' },
              { label: 'error rate %', stroke: '#c98a00', scale: '%' },
            ],
            axes: [{}, {}, { scale: '%', side: 1, grid: { show: false } }],
          },
          [data.minutes, data.runs, data.errors, rate],
          chart,
        );
      })
      .catch(function () {});
  }
})();
