# bench/chart.gp: the chart of bench/results.md, drawn by bench.sh --write.
# Inputs (gnuplot -e): gen (candidate, marginal ns/ID), pgb (clients, tps per key
# type), sort (table, ms), rows (values sorted), v7 (1: pgb has a sixth column, uuidv7's
# tps, on PostgreSQL 18+), out (the PNG).
set terminal pngcairo size 1200,420 font "sans,10" noenhanced
set output out
set multiplot layout 1,3
set style fill solid 0.8 border -1
set boxwidth 0.6
set grid ytics

if (!exists("v7")) v7 = 0
set title "Marginal cost per generated ID (ns, log scale)"
set logscale y
set yrange [1:*]
if (v7) set xtics rotate by -30
plot gen using 0:2:xtic(1) with boxes lc rgb "#4477aa" notitle, \
     gen using 0:2:(sprintf("%.0f", $2)) with labels offset 0,0.8 notitle
unset logscale y
set yrange [0:*]

set title sprintf("ORDER BY of %s values, in memory (ms)", rows)
set xtics rotate by -30
plot sort using 0:2:xtic(1) with boxes lc rgb "#66aa55" notitle
set xtics norotate

set title "pgbench: INSERT with a generated primary key (tps)"
set xlabel "clients"
set key top left
if (v7) {
plot pgb using 1:2 with linespoints lw 2 title "bigserial", \
     pgb using 1:3 with linespoints lw 2 title "uuid (gen_random_uuid)", \
     pgb using 1:4 with linespoints lw 2 title "sno (sno_new)", \
     pgb using 1:5 with linespoints lw 2 title "muid (muid_new)", \
     pgb using 1:6 with linespoints lw 2 title "uuid (uuidv7)"
} else {
plot pgb using 1:2 with linespoints lw 2 title "bigserial", \
     pgb using 1:3 with linespoints lw 2 title "uuid (gen_random_uuid)", \
     pgb using 1:4 with linespoints lw 2 title "sno (sno_new)", \
     pgb using 1:5 with linespoints lw 2 title "muid (muid_new)"
}
unset multiplot
