from referee._start import main

main()
