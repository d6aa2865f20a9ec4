" getaway-ref: a .gwy record. Comments start with '#'; the editor server attaches unless
" g:getaway_ref_no_lsp is set (see lua/getaway_ref.lua).
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=#\ %s comments=:#
let b:undo_ftplugin = 'setlocal commentstring< comments<'
if has('nvim-0.7') && !get(g:, 'getaway_ref_no_lsp', 0)
  lua require('getaway_ref').attach(vim.api.nvim_get_current_buf())
endif
