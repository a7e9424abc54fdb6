# What `cmake --install` puts where, and the Debian package CPack makes of it (scripts/package).

install(TARGETS footprint RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# kubectl runs any `kubectl-NAME` on PATH for `kubectl NAME`, so this link makes
# `kubectl footprint audit ...` work.
file(CREATE_LINK footprint ${CMAKE_BINARY_DIR}/kubectl-footprint SYMBOLIC)
install(FILES ${CMAKE_BINARY_DIR}/kubectl-footprint DESTINATION ${CMAKE_INSTALL_BINDIR})

install(FILES ${CMAKE_BINARY_DIR}/footprint.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_BINARY_DIR}/completions/footprint
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
# zsh looks in share/zsh/site-functions under /usr/local, and Debian's zsh in
# /usr/share/zsh/vendor-completions under /usr; decided at install time, when the prefix is known
# (`cmake --install --prefix`, or CPack's staging directory ending in /usr).
# FOOTPRINT_ZSH_COMPLETIONS_DIR overrides it.
set(FOOTPRINT_ZSH_COMPLETIONS_DIR "" CACHE STRING
    "Where to install the zsh completion, relative to the prefix (default: by prefix)")
install(CODE "
  set(zsh_dir \"${FOOTPRINT_ZSH_COMPLETIONS_DIR}\")
  if(NOT zsh_dir)
    if(CMAKE_INSTALL_PREFIX MATCHES \"(^|/)usr$\")
      set(zsh_dir share/zsh/vendor-completions)
    else()
      set(zsh_dir share/zsh/site-functions)
    endif()
  endif()
  file(INSTALL \"${CMAKE_BINARY_DIR}/completions/_footprint\"
       DESTINATION \"\${CMAKE_INSTALL_PREFIX}/\${zsh_dir}\")")

# The helm plugin: `helm plugin install /usr/share/footprint/helm-plugin`.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/helm-plugin/plugin.yaml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/footprint/helm-plugin)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/packaging/helm-plugin/footprint-helm
        DESTINATION ${CMAKE_INSTALL_DATADIR}/footprint/helm-plugin)
# The helm 4 post-renderer plugin for `fix webhooks`:
# `helm plugin install /usr/share/footprint/helm-postrenderer`.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/helm-postrenderer/plugin.yaml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/footprint/helm-postrenderer)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/packaging/helm-postrenderer/footprint-postrender
        DESTINATION ${CMAKE_INSTALL_DATADIR}/footprint/helm-postrenderer)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME footprint)
set(CPACK_PACKAGE_VENDOR "footprint developers")
set(CPACK_PACKAGE_CONTACT "footprint developers <footprint@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "what installing a Kubernetes operator or Helm chart does to a shared cluster")
set(CPACK_PACKAGE_DESCRIPTION
    "footprint reads rendered Kubernetes manifests or Helm charts and reports, offline and before
anything is installed, what the install does to a shared cluster: the objects and namespaces it
touches, its admission webhooks and RBAC, CRD sizes and conversion wiring, and the images an
air-gapped cluster needs, with a concrete fix for each problem. It installs kubectl-footprint
for `kubectl footprint`, a helm plugin in /usr/share/footprint/helm-plugin and a helm
post-renderer plugin in /usr/share/footprint/helm-postrenderer.")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends: comes from dpkg-shlibdeps over the installed binary, so it names exactly the libraries
# this build links and the versions it needs.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)
