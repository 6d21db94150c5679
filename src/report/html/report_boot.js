// hwcomm report page, first script: collects script errors and requests the
// content-security policy refused before anything else runs (the browser test reads both).
window.hwcommErrors = [];
window.hwcommBlocked = [];
window.addEventListener('error', function (e) { window.hwcommErrors.push(String(e.message || e.type)); }, true);
document.addEventListener('securitypolicyviolation', function (e) {
  window.hwcommBlocked.push(e.violatedDirective + ' ' + e.blockedURI);
});
