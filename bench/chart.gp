# bench/chart.gp: the chart of a bench.sh report, drawn by bench/chart.sh from the report's
# tables (bench.sh --write and --out run chart.sh on the report they wrote).
# Inputs (gnuplot -e):
#   gen    lines "label" marginal-ns colour (0xRRGGBB: PostgreSQL's own, another extension, uid)
#   sort   lines table ms
#   pgb    a header line of quoted titles ("clients" "bigserial" ...), then clients and tps
#          per key type; cols: its number of columns
#   peers  1 if gen has bars of other extensions (the key names them only then)
#   rows   the values sorted; source: the line under the chart; out: the PNG
set terminal pngcairo size 1400,600 font "sans,10" noenhanced
set output out
# the same plot area in every panel, with room below for rotated labels and the third
# panel's key, so that no label or key covers a bar or a line
set multiplot layout 1,3 margins 0.055,0.985,0.36,0.92 spacing 0.075,0
set style fill solid 0.8 border -1
set boxwidth 0.6
set grid ytics
# the pgbench lines: dark, well apart colours (gnuplot's default yellow is hard to see)
array lc[8] = ["#222222", "#cc3311", "#0077bb", "#33bbee", "#ee7733", "#009988", "#ee3377", "#8866aa"]
do for [i=1:8] { set linetype i lc rgb lc[i] lw 2 }
set xtics rotate by -40 nomirror
set label 1 source at screen 0.5,0.025 center font "sans,9" tc rgb "#555555"

set title "Marginal cost per generated ID (ns, log scale)"
set logscale y
if (!exists("peers")) peers = 0
stats gen using 2 nooutput
# room above the tallest bar for the key
set yrange [1:STATS_max * 20]
set key top right Left reverse samplen 1 box opaque
plot gen using 0:2:3:xtic(1) with boxes lc rgb variable lw 1 notitle, \
     gen using 0:2:(sprintf("%.0f", $2)) with labels offset 0,0.8 notitle, \
     keyentry with boxes lc rgb "#4477aa" lw 1 title "PostgreSQL", \
     keyentry with boxes lw 1 lc rgb (peers ? "#ee7733" : "white") title (peers ? "other extensions" : ""), \
     keyentry with boxes lc rgb "#228833" lw 1 title "uid"
unset logscale y
set yrange [0:*]
unset label 1
set key off

set title sprintf("ORDER BY of %s values, in memory (ms)", rows)
plot sort using 0:2:xtic(1) with boxes lc rgb "#66aa55" lw 1 notitle

set title "pgbench: INSERT with a generated primary key (tps)"
set xtics norotate
set xlabel "clients"
# the key under the plot, clear of its lines: one column, up to eight key types
set key at screen 0.855,0.265 center top vertical maxrows 8 noopaque nobox Left reverse samplen 3 width 1
plot for [i=2:cols] pgb using 1:i with linespoints lt (i - 1) title columnheader(i)
unset multiplot
