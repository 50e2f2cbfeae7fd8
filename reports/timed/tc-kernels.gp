# tc-kernels.gp - written by `cohcheck report timed`; run `gnuplot tc-kernels.gp` here.
set terminal svg size 1100,450 dynamic font 'sans,11'
set output 'tc-kernels.svg'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set title "TC and RCC protocols on application kernels (seed 004 Fig. 7, seed 003 Fig. 9)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set ylabel "speedup (nol1)"
set xtics noenhanced
plot 'tc-kernels.dat' using 2:xtic(1) title "nol1" noenhanced lc rgb '#1f77b4', 'tc-kernels.dat' using 3:xtic(1) title "mesi" noenhanced lc rgb '#d62728', 'tc-kernels.dat' using 4:xtic(1) title "gpu-vi" noenhanced lc rgb '#2ca02c', 'tc-kernels.dat' using 5:xtic(1) title "gpu-vini" noenhanced lc rgb '#9467bd', 'tc-kernels.dat' using 6:xtic(1) title "tcs" noenhanced lc rgb '#ff7f0e', 'tc-kernels.dat' using 7:xtic(1) title "tcs-inorder" noenhanced lc rgb '#8c564b', 'tc-kernels.dat' using 8:xtic(1) title "tcw" noenhanced lc rgb '#e377c2', 'tc-kernels.dat' using 9:xtic(1) title "rcc-vifix" noenhanced lc rgb '#17becf', 'tc-kernels.dat' using 10:xtic(1) title "rcc-wo-vifix" noenhanced lc rgb '#1f77b4'
set output
set terminal pngcairo size 1100,450 font 'sans,10'
set output 'tc-kernels.png'
set datafile missing '?'
set key outside right top
set grid ytics
set border 3
set tics nomirror
set title "TC and RCC protocols on application kernels (seed 004 Fig. 7, seed 003 Fig. 9)" noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set ylabel "speedup (nol1)"
set xtics noenhanced
plot 'tc-kernels.dat' using 2:xtic(1) title "nol1" noenhanced lc rgb '#1f77b4', 'tc-kernels.dat' using 3:xtic(1) title "mesi" noenhanced lc rgb '#d62728', 'tc-kernels.dat' using 4:xtic(1) title "gpu-vi" noenhanced lc rgb '#2ca02c', 'tc-kernels.dat' using 5:xtic(1) title "gpu-vini" noenhanced lc rgb '#9467bd', 'tc-kernels.dat' using 6:xtic(1) title "tcs" noenhanced lc rgb '#ff7f0e', 'tc-kernels.dat' using 7:xtic(1) title "tcs-inorder" noenhanced lc rgb '#8c564b', 'tc-kernels.dat' using 8:xtic(1) title "tcw" noenhanced lc rgb '#e377c2', 'tc-kernels.dat' using 9:xtic(1) title "rcc-vifix" noenhanced lc rgb '#17becf', 'tc-kernels.dat' using 10:xtic(1) title "rcc-wo-vifix" noenhanced lc rgb '#1f77b4'
set output
