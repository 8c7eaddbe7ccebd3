"""dynid: identification and evaluation of the dynamic model of floating-base robots.

The C++ library (include/dynid) as a Python module: Model, Data, rnea, crba, com, centroidal
momentum, frame Jacobians, the regressors, base parameters, streaming least squares, the physically
consistent fit, data-set reading, compute (the `dynid compute` contract), simulate, the inertial,
static and IZMP pipelines stage by stage, the actuator identification and the IZMP study.
docs/python.md has the overview and a worked example; help(dynid.rnea) has each function's units
and frames.
"""

from ._dynid import *  # noqa: F401,F403
from ._dynid import __version__  # noqa: F401
