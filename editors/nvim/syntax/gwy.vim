" getaway-ref: colours for .gwy records without the editor server (the server adds its own).
if exists('b:current_syntax')
  finish
endif
syntax case ignore
syntax match gwyComment /#.*$/ contains=@Spell
syntax match gwyVersion /^\s*%gwy\>.*/ contains=gwyComment
syntax match gwyGame /^\s*%game\>/
syntax region gwyTag start=/\[/ end=/\]/ oneline contains=gwyTagValue
syntax region gwyTagValue start=/"/ skip=/\\"/ end=/"/ contained oneline
syntax keyword gwyKeyword deal position takes draws from counts out waste lead leads next trick trumps
syntax match gwyTrickNumber /^\s*\d\+\./
syntax match gwyRedCard /\<\%(10\|[2-9tjqka]\)[♥♦♡♢hd]\%(\s\|,\|$\)\@=/
syntax match gwyBlackCard /\<\%(10\|[2-9tjqka]\)[♠♣sc]\*\?\%(\s\|,\|$\)\@=/
highlight default link gwyComment Comment
highlight default link gwyVersion PreProc
highlight default link gwyGame Statement
highlight default link gwyTag Identifier
highlight default link gwyTagValue String
highlight default link gwyKeyword Keyword
highlight default link gwyTrickNumber Number
highlight default gwyRedCard ctermfg=Red guifg=#d03030
highlight default link gwyBlackCard Normal
let b:current_syntax = 'gwy'
