" getaway-ref: .gwy game records (Neovim 0.7 and later; Vim too)
autocmd BufRead,BufNewFile *.gwy setfiletype gwy
