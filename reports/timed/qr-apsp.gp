# qr-apsp.gp - written by `cohcheck report timed`; run `gnuplot qr-apsp.gp` here.
set terminal svg size 1100,450 dynamic font 'sans,11'
set output 'qr-apsp.svg'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set title "QuickRelease against write-through and RFO on APSP (seed 000 Fig. 5)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set ylabel "speedup (nol1)"
set xtics noenhanced
plot 'qr-apsp.dat' using 2:xtic(1) title "nol1" noenhanced lc rgb '#1f77b4', 'qr-apsp.dat' using 3:xtic(1) title "gpu-wt" noenhanced lc rgb '#d62728', 'qr-apsp.dat' using 4:xtic(1) title "qr" noenhanced lc rgb '#2ca02c', 'qr-apsp.dat' using 5:xtic(1) title "mesi" noenhanced lc rgb '#9467bd'
set output
set terminal pngcairo size 1100,450 font 'sans,10'
set output 'qr-apsp.png'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set title "QuickRelease against write-through and RFO on APSP (seed 000 Fig. 5)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set ylabel "speedup (nol1)"
set xtics noenhanced
plot 'qr-apsp.dat' using 2:xtic(1) title "nol1" noenhanced lc rgb '#1f77b4', 'qr-apsp.dat' using 3:xtic(1) title "gpu-wt" noenhanced lc rgb '#d62728', 'qr-apsp.dat' using 4:xtic(1) title "qr" noenhanced lc rgb '#2ca02c', 'qr-apsp.dat' using 5:xtic(1) title "mesi" noenhanced lc rgb '#9467bd'
set output
