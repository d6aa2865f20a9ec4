-- getaway-ref's editor server for Neovim 0.7 and later.
--
--   require('getaway_ref').setup({ cmd = { 'getaway-ref', 'lsp' } })  -- optional
--
-- The ftplugin calls attach() for every .gwy buffer: one server per project root (the
-- directory of pyproject.toml, getaway-ref.toml or .git above the file), started with
-- vim.lsp.start on 0.8 and later, with vim.lsp.start_client and buf_attach_client on 0.7.
local M = {}

M.config = {
  cmd = { 'getaway-ref', 'lsp' },
  markers = { 'pyproject.toml', 'getaway-ref.toml', '.git' },
}

local clients = {} -- root directory -> client id (0.7)

function M.setup(opts)
  M.config = vim.tbl_extend('force', M.config, opts or {})
end

local function root_of(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  local found = vim.fn.finddir('.git', dir .. ';')
  for _, marker in ipairs(M.config.markers) do
    local f = vim.fn.findfile(marker, dir .. ';')
    if f ~= '' then
      return vim.fn.fnamemodify(f, ':p:h')
    end
  end
  if found ~= '' then
    return vim.fn.fnamemodify(found, ':p:h:h')
  end
  return dir
end

function M.attach(bufnr)
  if vim.fn.executable(M.config.cmd[1]) == 0 then
    vim.notify_once('getaway-ref: ' .. M.config.cmd[1] .. ' not found; the editor server is off', vim.log.levels.WARN)
    return
  end
  local root = root_of(vim.api.nvim_buf_get_name(bufnr))
  local config = { name = 'getaway-ref', cmd = M.config.cmd, root_dir = root }
  if vim.lsp.start then -- 0.8 and later
    vim.lsp.start(config, { bufnr = bufnr })
    return
  end
  local id = clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client(config)
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

return M
