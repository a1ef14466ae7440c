package fleet

import (
	"html/template"
	"io"

	"github.com/ctrld-install/ctrld-install/internal/codes"
)

// Chart geometry, in SVG user units.
const (
	chartWidth  = 900
	labelWidth  = 330
	barMaxWidth = chartWidth - labelWidth - 70
	barHeight   = 18
	rowHeight   = 24
	groupGap    = 30
)

// bar is one code's bar in the chart.
type bar struct {
	Line
	Y, Width, TextY int
}

// group is one stage's bars, under its heading.
type group struct {
	Stage    string
	HeadingY int
	Bars     []bar
}

type page struct {
	Summary   string
	Groups    []group
	Height    int
	Lines     []Line
	Uncounted []uncounted
	Inputs    []string
}

// WriteHTML writes one self-contained page: inline CSS and SVG, no
// script, nothing fetched. The bar chart shows the results per code,
// grouped by stage; the table below gives each code's meaning and next
// action.
func (t *Tally) WriteHTML(w io.Writer) error {
	p := page{Summary: t.Summary(), Lines: t.Lines(), Uncounted: t.uncounted()}
	for _, in := range t.Inputs {
		p.Inputs = append(p.Inputs, in.Label()+": "+in.describe())
	}
	p.Groups, p.Height = chartGroups(p.Lines)
	return pageTemplate.Execute(w, p)
}

// chartGroups lays the bars out: success first, then the stages in
// ctrld's order; within a stage, most devices first.
func chartGroups(lines []Line) ([]group, int) {
	most := 1
	for _, l := range lines {
		most = max(most, l.Count())
	}
	stages := []string{""}
	for _, s := range codes.StageRanges {
		stages = append(stages, s.Stage)
	}
	var groups []group
	y := 10
	for _, stage := range stages {
		g := group{Stage: stageTitle(stage), HeadingY: y + 14}
		for _, l := range lines {
			if l.Stage != stage {
				continue
			}
			top := y + groupGap + len(g.Bars)*rowHeight
			width := max(1, l.Count()*barMaxWidth/most)
			g.Bars = append(g.Bars, bar{Line: l, Y: top, Width: width, TextY: top + 14})
		}
		if len(g.Bars) == 0 {
			continue
		}
		groups = append(groups, g)
		y += groupGap + len(g.Bars)*rowHeight + 6
	}
	return groups, y + 10
}

func stageTitle(stage string) string {
	if stage == "" {
		return "success"
	}
	return "stage " + stage
}

var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"barX": func() int { return labelWidth },
	"numX": func(b bar) int { return labelWidth + b.Width + 6 },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>ctrld-install fleet report</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1b1f24; }
h1 { font-size: 20px; }
table { border-collapse: collapse; margin: 12px 0 24px; }
th, td { border: 1px solid #c9d1d9; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f0f3f6; }
td.n { text-align: right; }
svg text { font: 13px system-ui, sans-serif; }
.heading { font-weight: bold; }
.bar-success { fill: #2da44e; }
.bar-transient { fill: #d4a72c; }
.bar-terminal { fill: #cf222e; }
.legend span { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 12px; vertical-align: middle; }
</style>
</head>
<body>
<h1>ctrld-install fleet report</h1>
<p>{{.Summary}}.</p>
<ul>{{range .Inputs}}<li>{{.}}</li>{{end}}</ul>
<p class="legend">
<span class="bar-success" style="background:#2da44e"></span>success
<span class="bar-transient" style="background:#d4a72c"></span>transient (can clear by itself; Intune retries)
<span class="bar-terminal" style="background:#cf222e"></span>terminal (needs a fix)
</p>
<svg width="900" height="{{.Height}}" viewBox="0 0 900 {{.Height}}" role="img" aria-label="results per code, by stage">
{{- range .Groups}}
<text class="heading" x="0" y="{{.HeadingY}}">{{.Stage}}</text>
{{- range .Bars}}
<text x="0" y="{{.TextY}}">{{.Code}}{{if .Exit}} ({{.Exit}}){{end}}</text>
<rect class="bar bar-{{if .Class}}{{.Class}}{{else}}success{{end}}" x="{{barX}}" y="{{.Y}}" width="{{.Width}}" height="18" data-code="{{.Code}}" data-stage="{{.Stage}}" data-count="{{.Count}}" data-devices="{{.Devices}}" data-attempts="{{.Attempts}}"></rect>
<text x="{{numX .}}" y="{{.TextY}}">{{.Count}}</text>
{{- end}}
{{- end}}
</svg>
<h2>Results per code</h2>
<table>
<tr><th>devices</th><th>attempts</th><th>exit</th><th>stage</th><th>code</th><th>class</th><th>meaning</th><th>next action</th></tr>
{{- range .Lines}}
<tr><td class="n">{{.Devices}}</td><td class="n">{{.Attempts}}</td><td class="n">{{.Exit}}</td><td>{{.Stage}}</td><td>{{.Code}}</td><td>{{.Class}}</td><td>{{.Meaning}}</td><td>{{.NextAction}}</td></tr>
{{- end}}
</table>
<h2>Not counted above</h2>
<table>
<tr><th>rows</th><th>what</th><th>meaning</th></tr>
{{- range .Uncounted}}
<tr><td class="n" data-uncounted="{{.Label}}">{{.Count}}</td><td>{{.Label}}</td><td>{{.Means}}</td></tr>
{{- end}}
</table>
</body>
</html>
`))
