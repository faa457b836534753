"""Package discovery, which pyproject.toml cannot say alone: every package under apiscan/
(namespace folders such as apiscan/verify included) plus the mapping data, which lives beside
the package in a checkout and inside it (``apiscan._data.mapping_data``) once installed."""

from setuptools import find_namespace_packages, setup

DATA = "apiscan._data.mapping_data"

setup(
    packages=[*find_namespace_packages(include=["apiscan", "apiscan.*"]), DATA],
    package_dir={DATA: "mapping_data"},
)
