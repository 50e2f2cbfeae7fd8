# hlrc-steal.gp - written by `cohcheck report timed`; run `gnuplot hlrc-steal.gp` here.
set terminal svg size 1100,450 dynamic font 'sans,11'
set output 'hlrc-steal.svg'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set multiplot layout 1,1 title "Task queue by steal interval (seed 001 Fig. 4 shape)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set xlabel "STEAL"
set ylabel "speedup"
set title "taskqueue" noenhanced
plot 'hlrc-steal.dat' index 0 using 2:xtic(1) lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hlrc-steal.dat' index 0 using 3:xtic(1) lc rgb '#d62728' title "rsp" noenhanced, 'hlrc-steal.dat' index 0 using 4:xtic(1) lc rgb '#2ca02c' title "hlrc" noenhanced, 'hlrc-steal.dat' index 0 using 5:xtic(1) lc rgb '#9467bd' title "denovo-b" noenhanced
unset multiplot
set output
set terminal pngcairo size 1100,450 font 'sans,10'
set output 'hlrc-steal.png'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set multiplot layout 1,1 title "Task queue by steal interval (seed 001 Fig. 4 shape)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set xlabel "STEAL"
set ylabel "speedup"
set title "taskqueue" noenhanced
plot 'hlrc-steal.dat' index 0 using 2:xtic(1) lc rgb '#1f77b4' title "gpu-wt" noenhanced, 'hlrc-steal.dat' index 0 using 3:xtic(1) lc rgb '#d62728' title "rsp" noenhanced, 'hlrc-steal.dat' index 0 using 4:xtic(1) lc rgb '#2ca02c' title "hlrc" noenhanced, 'hlrc-steal.dat' index 0 using 5:xtic(1) lc rgb '#9467bd' title "denovo-b" noenhanced
unset multiplot
set output
