# hlrc-pannotia.gp - written by `cohcheck report timed`; run `gnuplot hlrc-pannotia.gp` here.
set terminal svg size 1100,450 dynamic font 'sans,11'
set output 'hlrc-pannotia.svg'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set title "Pannotia kernels over per-CU task queues at 128 CUs (seed 001 Fig. 4)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set ylabel "speedup (gpu-wt@STEAL=0)"
set xtics noenhanced
plot 'hlrc-pannotia.dat' using 2:xtic(1) title "gpu-wt@STEAL=0" noenhanced lc rgb '#1f77b4', 'hlrc-pannotia.dat' using 3:xtic(1) title "rsp@SCOPED=1,STEAL=0" noenhanced lc rgb '#d62728', 'hlrc-pannotia.dat' using 4:xtic(1) title "gpu-wt@STEAL=2" noenhanced lc rgb '#2ca02c', 'hlrc-pannotia.dat' using 5:xtic(1) title "rsp@SCOPED=1,STEAL=2" noenhanced lc rgb '#9467bd', 'hlrc-pannotia.dat' using 6:xtic(1) title "denovo-b@STEAL=2" noenhanced lc rgb '#ff7f0e', 'hlrc-pannotia.dat' using 7:xtic(1) title "hlrc@STEAL=2" noenhanced lc rgb '#8c564b'
set output
set terminal pngcairo size 1100,450 font 'sans,10'
set output 'hlrc-pannotia.png'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set title "Pannotia kernels over per-CU task queues at 128 CUs (seed 001 Fig. 4)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set ylabel "speedup (gpu-wt@STEAL=0)"
set xtics noenhanced
plot 'hlrc-pannotia.dat' using 2:xtic(1) title "gpu-wt@STEAL=0" noenhanced lc rgb '#1f77b4', 'hlrc-pannotia.dat' using 3:xtic(1) title "rsp@SCOPED=1,STEAL=0" noenhanced lc rgb '#d62728', 'hlrc-pannotia.dat' using 4:xtic(1) title "gpu-wt@STEAL=2" noenhanced lc rgb '#2ca02c', 'hlrc-pannotia.dat' using 5:xtic(1) title "rsp@SCOPED=1,STEAL=2" noenhanced lc rgb '#9467bd', 'hlrc-pannotia.dat' using 6:xtic(1) title "denovo-b@STEAL=2" noenhanced lc rgb '#ff7f0e', 'hlrc-pannotia.dat' using 7:xtic(1) title "hlrc@STEAL=2" noenhanced lc rgb '#8c564b'
set output
